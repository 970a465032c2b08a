#pragma once
// The closed loop of every macro benchmark case: load/'s closed_loop (one driver for `wirebench
// run` and the benchmarks) under a call-count stop policy, reported as Google Benchmark counters.
#include <cstdint>

#include <benchmark/benchmark.h>

#include "wirebench/load/closed_loop.hpp"

namespace wirebench::bench {

// What a benchmark case does with failed calls: end the case with an error, or count them
// (counter `errors`, and the failures by type in the label) and report the successes.
enum class on_failure { fatal, counted };

// The measured part of every closed-loop case: `warmup` completions (connects, warms caches),
// then `batch` completions per benchmark iteration under steady load, then the latency counters
// and the failures. The workers keep calling across iterations: a loop drained at the end of every
// iteration would spend each one's tail with fewer than `workers` calls in flight.
void measure(benchmark::State& state, closed_loop& loop, std::uint64_t warmup, std::uint64_t batch,
             on_failure policy);

}  // namespace wirebench::bench
