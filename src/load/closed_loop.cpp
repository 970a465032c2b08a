#include "wirebench/load/closed_loop.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "wirebench/core/error.hpp"
#include "wirebench/core/loop_clock.hpp"
#include "wirebench/load/load_driver.hpp"

namespace wirebench {

closed_loop::closed_loop(protocol_client& client, std::size_t workers, std::size_t payload_bytes)
    : client_(client), check_greetings_(client.greets()), workers_(workers) {
  if (workers == 0) throw std::invalid_argument("a closed loop needs at least one worker");
  for (std::size_t w = 0; w < workers; ++w) {
    workers_[w].name = greet_name(w, payload_bytes);
    if (check_greetings_) workers_[w].expected = expected_greeting(workers_[w].name);
  }
}

closed_loop::~closed_loop() { stop(); }

void closed_loop::start() {
  if (phase_.load() != phase::idle) return;
  active_.store(workers_.size());
  phase_.store(phase::warmup, std::memory_order_release);
  for (std::size_t w = 0; w < workers_.size(); ++w) issue(w, clock::now());
}

void closed_loop::open_window() { phase_.store(phase::measured, std::memory_order_release); }
void closed_loop::close_window() { phase_.store(phase::after, std::memory_order_release); }

// Polled: a completion that woke this thread would be a shared write per call. Each sleep is half
// the time the remaining calls should take at the rate seen so far (20 us to 1 ms), so that the
// wait ends close to the count without waking often.
void closed_loop::wait_for_completions(std::uint64_t n) const {
  using namespace std::chrono_literals;
  const auto since = clock::now();
  const std::uint64_t from = recorder_.completions();
  for (std::uint64_t done = from; done < n; done = recorder_.completions()) {
    auto pause = std::chrono::duration_cast<std::chrono::nanoseconds>(1ms);
    if (done > from) {
      const auto per_call = (clock::now() - since) / (done - from);
      pause = std::chrono::duration_cast<std::chrono::nanoseconds>(per_call * (n - done) / 2);
    }
    std::this_thread::sleep_for(std::clamp<std::chrono::nanoseconds>(pause, 20us, 1ms));
  }
}

void closed_loop::stop() {
  const phase was = phase_.exchange(phase::stopping);
  if (was == phase::idle || was == phase::stopping) {
    if (was == phase::idle) phase_.store(phase::idle);
    return;
  }
  // Each worker retires at its next issue(); the last one wakes us.
  std::unique_lock lock(done_mutex_);
  done_.wait(lock, [this] { return active_.load() == 0; });
}

// Inline into on_reply(), where a worker's every call but its first starts.
inline void closed_loop::issue(std::size_t w, clock::time_point now) {
  const phase now_in = phase_.load(std::memory_order_acquire);
  if (now_in == phase::stopping) {
    // The lock makes the last decrement and the driver's wait one step: the driver cannot see 0
    // and destroy this loop between our decrement and our notify.
    std::lock_guard lock(done_mutex_);
    if (active_.fetch_sub(1) == 1) done_.notify_all();
    return;
  }
  worker& k = workers_[w];
  k.measured = now_in == phase::measured;
  k.started = now;
  client_.async_greet_on(w, k.name, [this, w](std::error_code ec, std::string_view reply) {
    on_reply(w, ec, reply);
  });
}

void closed_loop::on_reply(std::size_t w, std::error_code ec, std::string_view reply) {
  worker& k = workers_[w];
  // When the reply was read (the loop's turn; the clock's for a client with no loop of ours),
  // and when the worker's next call starts: replies read together share one clock read.
  const auto now = loop_clock::now();
  const auto ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(now - k.started).count());
  if (check_greetings_ && !ec && reply != k.expected) ec = errc::wrong_reply;
  recorder_.local().record(k.measured, ec, ns);
  issue(w, now);
}

std::string greet_name(std::size_t index, std::size_t payload_bytes) {
  std::string name = "w";  // appended piecewise: GCC 12 warns falsely on "w" + std::string
  name += std::to_string(index);
  name += '-';
  name.resize(std::max(payload_bytes, name.size()), 'x');
  return name;
}

load_result run_closed_loop(protocol_client& client, const load_spec& spec) {
  if (spec.workers == 0) throw std::invalid_argument("a closed loop needs at least one worker");
  closed_loop loop(client, spec.workers, spec.payload_bytes);
  using clock = closed_loop::clock;
  const auto start = clock::now();
  loop.start();
  std::this_thread::sleep_until(start + spec.warmup);
  if (spec.on_window) spec.on_window(true);
  const auto window_start = clock::now();
  const double window_start_unix = unix_seconds_now();
  loop.open_window();
  std::this_thread::sleep_until(window_start + spec.duration);
  loop.close_window();
  const auto window_end = clock::now();
  if (spec.on_window) spec.on_window(false);
  loop.stop();
  auto totals = loop.results();
  load_result result;
  result.latency = std::move(totals.latency);
  result.actual_latency = std::move(totals.actual_latency);
  result.outcomes = std::move(totals.outcomes);
  result.window_seconds = std::chrono::duration<double>(window_end - window_start).count();
  result.window_start_unix = window_start_unix;
  return result;
}

load_result run_load(protocol_client& client, const load_spec& spec) {
  return spec.arrivals ? run_open_loop(client, spec) : run_closed_loop(client, spec);
}

}  // namespace wirebench
