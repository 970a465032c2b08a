#include "macro/closed_loop.hpp"

#include <string>

#include "macro/report.hpp"

namespace wirebench::bench {

void measure(benchmark::State& state, closed_loop& loop, std::uint64_t warmup, std::uint64_t batch,
             on_failure policy) {
  loop.start();
  loop.wait_for_completions(warmup);
  loop.open_window();
  const std::uint64_t first = loop.completions();
  std::uint64_t due = first;
  for (auto _ : state) loop.wait_for_completions(due += batch);
  // Counted as the timed part ends; the calls still in flight then complete while stop() drains
  // the loop, untimed. Their latencies are recorded (they were sent under the steady load).
  const std::uint64_t completed = loop.completions() - first;
  loop.close_window();
  loop.stop();
  const call_recorder::totals r = loop.results();
  const std::uint64_t failed = r.outcomes.failed();
  report_latency(state, r.latency, completed > failed ? completed - failed : 0);
  if (failed == 0) return;
  std::string why;
  for (const auto& [name, n] : r.outcomes.errors()) why += name + "=" + std::to_string(n) + " ";
  if (policy == on_failure::fatal) {
    state.SkipWithError(("calls failed: " + why).c_str());
  } else {
    state.counters["errors"] = static_cast<double>(failed);
    state.SetLabel("failed: " + why);
  }
}

}  // namespace wirebench::bench
