// Closed loop: W callers, each with one call in flight, for warm-up + duration. Calls started in
// the measured window are recorded; once it closes no caller starts another call, and the run
// ends when the last call in flight completes.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "wirebench/core/error.hpp"
#include "wirebench/load/call_recorder.hpp"
#include "wirebench/load/issue_trampoline.hpp"
#include "wirebench/load/load_driver.hpp"

namespace wirebench {
namespace {

using clock_type = std::chrono::steady_clock;

enum class phase : int { warmup, measured, stopping };

class closed_loop_run {
 public:
  closed_loop_run(protocol_client& client, const load_spec& spec)
      : client_(client), spec_(spec), workers_(spec.workers), recorder_(8) {
    for (std::size_t w = 0; w < workers_.size(); ++w) {
      workers_[w].name = greet_name(w, spec.payload_bytes);
      workers_[w].expected = expected_greeting(workers_[w].name);
    }
  }

  load_result run() {
    const auto start = clock_type::now();
    // Calls are classed by the clock, not only by the driver's phase flag: a client that completes
    // calls inside async_greet keeps the driving thread issuing (see issue()) past the flags.
    measured_from_ = start + spec_.warmup;
    stop_at_ = measured_from_ + spec_.duration;
    active_.store(workers_.size());
    for (std::size_t w = 0; w < workers_.size(); ++w) issue(w);

    std::this_thread::sleep_until(measured_from_);
    if (spec_.on_window) spec_.on_window(true);
    const auto window_start = clock_type::now();
    phase_.store(phase::measured, std::memory_order_release);
    std::this_thread::sleep_until(stop_at_);
    phase_.store(phase::stopping, std::memory_order_release);
    const auto window_end = clock_type::now();
    if (spec_.on_window) spec_.on_window(false);

    {
      std::unique_lock lock(done_mutex_);
      done_.wait(lock, [this] { return active_.load() == 0; });
    }
    load_result result;
    auto totals = recorder_.merged();
    result.latency = std::move(totals.latency);
    result.actual_latency = std::move(totals.actual_latency);
    result.outcomes = std::move(totals.outcomes);
    // At least the nominal window: the timed one is shorter only when the driving thread was kept
    // issuing through it (inline completions), and the calls were still made over all of it.
    result.window_seconds = std::max(std::chrono::duration<double>(window_end - window_start).count(),
                                     std::chrono::duration<double>(spec_.duration).count());
    return result;
  }

 private:
  struct worker {
    std::string name;
    std::string expected;
    clock_type::time_point started;
    bool measured = false;
  };

  // Through a trampoline: a completion made inside async_greet must not recurse (see there).
  void issue(std::size_t w) { issue_trampolined(this, w, &closed_loop_run::issue_now); }

  void issue_now(std::size_t w) {
    const auto now = clock_type::now();
    phase now_in = phase_.load(std::memory_order_acquire);
    if (now >= stop_at_) now_in = phase::stopping;
    if (now_in == phase::warmup && now >= measured_from_) now_in = phase::measured;
    if (now_in == phase::stopping) {
      // The lock makes the last decrement and the driver's wait one step: the driver cannot see 0
      // and destroy this run between our decrement and our notify.
      std::lock_guard lock(done_mutex_);
      if (active_.fetch_sub(1) == 1) done_.notify_all();
      return;
    }
    worker& k = workers_[w];
    k.measured = now_in == phase::measured;
    k.started = now;
    client_.async_greet(k.name, [this, w](std::error_code ec, std::string_view reply) {
      on_reply(w, ec, reply);
    });
  }

  void on_reply(std::size_t w, std::error_code ec, std::string_view reply) {
    worker& k = workers_[w];
    if (k.measured) {
      const auto ns = static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now() - k.started)
              .count());
      if (!ec && reply != k.expected) ec = errc::wrong_reply;
      recorder_.record(w, ec, ns, ns, false);
    }
    issue(w);
  }

  protocol_client& client_;
  const load_spec& spec_;
  std::vector<worker> workers_;
  call_recorder recorder_;
  std::atomic<phase> phase_{phase::warmup};
  clock_type::time_point measured_from_;  // set before the first call, read-only after
  clock_type::time_point stop_at_;
  std::atomic<std::size_t> active_{0};
  std::mutex done_mutex_;
  std::condition_variable done_;
};

}  // namespace

std::string greet_name(std::size_t index, std::size_t payload_bytes) {
  std::string name = "w";  // appended piecewise: GCC 12 warns falsely on "w" + std::string
  name += std::to_string(index);
  name += '-';
  name.resize(std::max(payload_bytes, name.size()), 'x');
  return name;
}

load_result run_closed_loop(protocol_client& client, const load_spec& spec) {
  if (spec.workers == 0) throw std::invalid_argument("a closed loop needs at least one worker");
  closed_loop_run run(client, spec);
  return run.run();
}

load_result run_load(protocol_client& client, const load_spec& spec) {
  return spec.arrivals ? run_open_loop(client, spec) : run_closed_loop(client, spec);
}

}  // namespace wirebench
