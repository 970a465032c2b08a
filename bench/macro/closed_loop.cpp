#include "macro/closed_loop.hpp"

#include <limits>

#include "macro/report.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/load/issue_trampoline.hpp"
#include "wirebench/load/load_driver.hpp"

namespace wirebench::bench {

closed_loop::closed_loop(protocol_client& client, std::size_t workers, std::size_t payload_bytes)
    : client_(client), workers_(workers) {
  for (std::size_t w = 0; w < workers; ++w) {
    workers_[w].name = greet_name(w, payload_bytes);
    workers_[w].expected = expected_greeting(workers_[w].name);
  }
}

void closed_loop::launch(std::int64_t calls) {
  all_done_ = std::promise<void>();
  const std::size_t starting = std::min<std::uint64_t>(workers_.size(), calls);
  to_issue_.store(calls);
  active_.store(starting);
  if (starting == 0) all_done_.set_value();  // nobody to wait for
  for (std::size_t w = 0; w < starting; ++w) issue(w);
}

void closed_loop::run(std::uint64_t calls) {
  launch(static_cast<std::int64_t>(calls));
  all_done_.get_future().wait();
}

void closed_loop::start() { launch(std::numeric_limits<std::int64_t>::max()); }

void closed_loop::wait_until_completed(std::uint64_t n) {
  // The completion that makes the count n sees wake_at_ == n unless it came before the store
  // below, and then the load of completed_ after it sees n (all seq_cst): no wake-up is lost.
  wake_at_.store(n);
  for (;;) {
    const auto seen = reached_.load();
    if (completed_.load() >= n) return;
    reached_.wait(seen);
  }
}

void closed_loop::stop() {
  auto done = all_done_.get_future();
  to_issue_.store(0);  // each worker retires at its next issue(); the last one sets all_done_
  done.wait();
}

void closed_loop::issue(std::size_t w) {
  // A completion made inside async_greet (a client that fails calls at once) must not recurse.
  issue_trampolined(this, w, &closed_loop::issue_now);
}

void closed_loop::issue_now(std::size_t w) {
  if (to_issue_.fetch_sub(1, std::memory_order_acq_rel) <= 0) {
    if (active_.fetch_sub(1, std::memory_order_acq_rel) == 1) all_done_.set_value();
    return;
  }
  workers_[w].started = std::chrono::steady_clock::now();
  client_.async_greet(workers_[w].name, [this, w](std::error_code ec, std::string_view reply) {
    on_reply(w, ec, reply);
  });
}

void closed_loop::on_reply(std::size_t w, std::error_code ec, std::string_view reply) {
  worker& k = workers_[w];
  const auto elapsed = std::chrono::steady_clock::now() - k.started;
  if (!ec && reply != k.expected) ec = errc::wrong_reply;
  if (ec) {
    failed_.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(failures_mutex_);
    ++failures_[std::string(error_name(ec))];
  } else {
    k.histogram.record(static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()));
  }
  const auto count = completed_.fetch_add(1) + 1;
  if (count == wake_at_.load()) {
    reached_.store(count);
    reached_.notify_one();
  }
  issue(w);
}

void closed_loop::reset() {
  for (auto& k : workers_) k.histogram.reset();
  completed_ = 0;
  failed_ = 0;
  wake_at_ = 0;
  reached_ = 0;
  std::lock_guard lock(failures_mutex_);
  failures_.clear();
}

latency_histogram closed_loop::latencies() const {
  latency_histogram merged;
  for (const auto& k : workers_) merged.merge(k.histogram);
  return merged;
}

std::map<std::string, std::uint64_t> closed_loop::failures() const {
  std::lock_guard lock(failures_mutex_);
  return failures_;
}

void measure(benchmark::State& state, closed_loop& loop, std::uint64_t warmup, std::uint64_t batch,
             on_failure policy) {
  loop.run(warmup);
  loop.reset();
  loop.start();
  std::uint64_t due = 0;
  for (auto _ : state) loop.wait_until_completed(due += batch);
  // Counted as the timed part ends; the calls still in flight then complete while stop() drains
  // the loop, untimed. Their latencies are recorded (they were sent under the steady load).
  const std::uint64_t completed = loop.completed(), failed = loop.failed();
  loop.stop();
  report_latency(state, loop.latencies(), completed - failed);
  if (loop.failed() == 0) return;
  std::string why;
  for (const auto& [name, n] : loop.failures()) why += name + "=" + std::to_string(n) + " ";
  if (policy == on_failure::fatal) {
    state.SkipWithError(("calls failed: " + why).c_str());
  } else {
    state.counters["errors"] = static_cast<double>(loop.failed());
    state.SetLabel("failed: " + why);
  }
}

}  // namespace wirebench::bench
