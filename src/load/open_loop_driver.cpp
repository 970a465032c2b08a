// Open loop: calls start on a schedule, whatever the server is doing. Each call is timed from its
// intended start, so a server stall shows up as latency even for the calls that were only waiting
// to be sent (no coordinated omission); the time from the actual send is recorded beside it.
// At most spec.workers calls are in flight; a call due while all are busy waits, and if it waits
// longer than spec.late_after it is counted late.
#include <sys/prctl.h>
#include <time.h>

#include <condition_variable>
#include <mutex>
#include <stdexcept>

#include "wirebench/core/error.hpp"
#include "wirebench/load/call_recorder.hpp"
#include "wirebench/load/load_driver.hpp"

namespace wirebench {
namespace {

using clock_type = std::chrono::steady_clock;

// steady_clock is CLOCK_MONOTONIC in libstdc++; sleeping on an absolute deadline does not drift.
void sleep_until(clock_type::time_point when) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(when.time_since_epoch());
  timespec ts{};
  ts.tv_sec = static_cast<time_t>(ns.count() / 1'000'000'000);
  ts.tv_nsec = static_cast<long>(ns.count() % 1'000'000'000);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

// The default 50 µs timer slack would batch wake-ups at high rates; restored when the run ends.
class precise_sleep_scope {
 public:
  precise_sleep_scope() : previous_(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0)) {
    prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
  }
  ~precise_sleep_scope() {
    if (previous_ > 0) prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(previous_), 0, 0, 0);
  }
  precise_sleep_scope(const precise_sleep_scope&) = delete;
  precise_sleep_scope& operator=(const precise_sleep_scope&) = delete;

 private:
  int previous_;
};

std::uint64_t ns_between(clock_type::time_point from, clock_type::time_point to) {
  return to <= from ? 0
                    : static_cast<std::uint64_t>(
                          std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count());
}

class open_loop_run {
 public:
  open_loop_run(protocol_client& client, const load_spec& spec)
      : client_(client),
        spec_(spec),
        name_(greet_name(0, spec.payload_bytes)),
        expected_(expected_greeting(name_)),
        recorder_(8) {}

  load_result run() {
    precise_sleep_scope precise;
    // The warm-up and the measured window each get their own schedule, so that a bursty run's
    // whole seconds are the measured window's (a warm-up is always evenly spaced: it is there to
    // open connections and warm caches, not to be measured).
    std::optional<arrival_schedule> warmup;
    if (spec_.warmup.count() > 0) {
      const auto kind = *spec_.arrivals == arrival_kind::bursty ? arrival_kind::uniform : *spec_.arrivals;
      warmup.emplace(kind, spec_.rate, spec_.warmup, spec_.seed + 1);
    }
    arrival_schedule measured(*spec_.arrivals, spec_.rate, spec_.duration, spec_.seed);
    auto next_offset = [&]() -> std::optional<std::chrono::nanoseconds> {
      if (warmup) {
        if (auto at = warmup->next()) return at;
        warmup.reset();
      }
      if (auto at = measured.next()) return spec_.warmup + *at;
      return std::nullopt;
    };
    // A short lead, so that the first calls are not late by the time it takes to get going.
    const auto start = clock_type::now() + 1ms;
    const auto window_opens = start + spec_.warmup;
    const auto window_closes = window_opens + spec_.duration;
    clock_type::time_point window_start{};
    bool window_open = false;
    load_result result;

    while (auto offset = next_offset()) {
      const auto intended = start + *offset;
      const bool measured = *offset >= spec_.warmup;
      if (measured && !window_open) {
        sleep_until(window_opens);
        if (spec_.on_window) spec_.on_window(true);
        window_start = clock_type::now();
        window_open = true;
      }
      if (intended > clock_type::now()) sleep_until(intended);
      wait_for_free_worker();
      const auto sent = clock_type::now();
      const bool late = sent - intended > spec_.late_after;
      if (measured) ++result.planned;
      client_.async_greet(name_, [this, intended, sent, measured, late](std::error_code ec,
                                                                         std::string_view reply) {
        on_reply(intended, sent, measured, late, ec, reply);
      });
    }
    if (!window_open) {  // a schedule with no call in the window (a rate below 1/duration)
      sleep_until(window_opens);
      if (spec_.on_window) spec_.on_window(true);
      window_start = clock_type::now();
    }
    if (clock_type::now() < window_closes) sleep_until(window_closes);
    const auto window_end = clock_type::now();
    if (spec_.on_window) spec_.on_window(false);
    {
      std::unique_lock lock(mutex_);
      driver_waiting_ = true;
      freed_.wait(lock, [this] { return in_flight_ == 0; });
    }
    auto totals = recorder_.merged();
    result.latency = std::move(totals.latency);
    result.actual_latency = std::move(totals.actual_latency);
    result.outcomes = std::move(totals.outcomes);
    result.late = totals.late;
    result.window_seconds = std::chrono::duration<double>(window_end - window_start).count();
    return result;
  }

 private:
  void wait_for_free_worker() {
    std::unique_lock lock(mutex_);
    if (in_flight_ >= spec_.workers) {
      driver_waiting_ = true;
      freed_.wait(lock, [this] { return in_flight_ < spec_.workers; });
      driver_waiting_ = false;
    }
    ++in_flight_;
  }

  void on_reply(clock_type::time_point intended, clock_type::time_point sent, bool measured,
                bool late, std::error_code ec, std::string_view reply) {
    if (measured) {
      const auto now = clock_type::now();
      if (!ec && reply != expected_) ec = errc::wrong_reply;
      recorder_.record(recorder_.shard_for_this_thread(), ec, ns_between(intended, now),
                       ns_between(sent, now), late);
    }
    // Under the lock, so that the driver cannot see in_flight_ reach 0 and destroy this run
    // between the decrement and the notify.
    std::lock_guard lock(mutex_);
    --in_flight_;
    if (driver_waiting_) freed_.notify_one();
  }

  protocol_client& client_;
  const load_spec& spec_;
  const std::string name_;
  const std::string expected_;
  call_recorder recorder_;
  std::mutex mutex_;
  std::condition_variable freed_;
  std::size_t in_flight_ = 0;
  bool driver_waiting_ = false;
};

}  // namespace

load_result run_open_loop(protocol_client& client, const load_spec& spec) {
  if (!spec.arrivals) throw std::invalid_argument("an open loop needs an arrival schedule");
  if (spec.workers == 0)
    throw std::invalid_argument("an open loop needs room for at least one call in flight");
  open_loop_run run(client, spec);
  return run.run();
}

}  // namespace wirebench
