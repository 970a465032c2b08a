// The cost of matching with no network: issue a call and complete one, with `depth` calls in
// flight (the steady state of a connection), by id (pending_table) and in order (fifo_matcher).
#include <deque>

#include <benchmark/benchmark.h>

#include "wirebench/calls/fifo_matcher.hpp"
#include "wirebench/calls/pending_table.hpp"

namespace wirebench {
namespace {

template <class Matcher>
void issue_and_complete(benchmark::State& state, Matcher& m) {
  const auto depth = static_cast<std::size_t>(state.range(0));
  const auto deadline = call_matcher::clock::now() + std::chrono::hours(1);
  std::size_t completed = 0;
  const auto done = [&completed](std::error_code, std::string_view) { ++completed; };
  std::deque<std::uint32_t> in_flight;
  for (std::size_t i = 0; i < depth; ++i)
    in_flight.push_back(m.add(call_completion(done), deadline, nullptr, "w1-x"));
  call_completion taken;
  for (auto _ : state) {
    in_flight.push_back(m.add(call_completion(done), deadline, nullptr, "w1-x"));
    m.take(in_flight.front(), taken);
    taken({}, "reply");
    in_flight.pop_front();
  }
  benchmark::DoNotOptimize(completed);
  state.SetItemsProcessed(state.iterations());
}

void pending_table_issue_complete(benchmark::State& state) {
  pending_table t({.max_in_flight = 4096, .max_abandoned = 4096});
  issue_and_complete(state, t);
}

void fifo_matcher_issue_complete(benchmark::State& state) {
  fifo_matcher m(4096);
  issue_and_complete(state, m);
}

BENCHMARK(pending_table_issue_complete)->ArgName("depth")->Arg(1)->Arg(64)->Arg(1024);
BENCHMARK(fifo_matcher_issue_complete)->ArgName("depth")->Arg(1)->Arg(64)->Arg(1024);

}  // namespace
}  // namespace wirebench
