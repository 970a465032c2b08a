// The cost of recording one latency: it sits on every call's completion path.
#include <random>

#include <benchmark/benchmark.h>

#include "wirebench/stats/latency_histogram.hpp"

namespace wirebench {
namespace {

void histogram_record(benchmark::State& state) {
  latency_histogram h;
  std::mt19937_64 rng(42);
  std::vector<std::uint64_t> values(4096);
  for (auto& v : values) v = 1000 + rng() % 10'000'000;  // 1 µs .. 10 ms
  std::size_t i = 0;
  for (auto _ : state) {
    h.record(values[i++ & 4095]);
  }
  benchmark::DoNotOptimize(h.count());
}
BENCHMARK(histogram_record);

}  // namespace
}  // namespace wirebench
