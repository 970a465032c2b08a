#pragma once
// Latency counters every macro benchmark reports the same way.
#include <benchmark/benchmark.h>

#include "wirebench/stats/latency_histogram.hpp"

namespace wirebench::bench {

inline void report_latency(benchmark::State& state, const latency_histogram& h,
                           std::uint64_t calls) {
  auto us = [](std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; };
  state.counters["rps"] = benchmark::Counter(static_cast<double>(calls), benchmark::Counter::kIsRate);
  state.counters["p50_us"] = us(h.percentile(50));
  state.counters["p90_us"] = us(h.percentile(90));
  state.counters["p99_us"] = us(h.percentile(99));
  state.counters["max_us"] = us(h.max());
  state.SetItemsProcessed(static_cast<std::int64_t>(calls));
}

}  // namespace wirebench::bench
