// Open loop: calls start on a schedule, whatever the server is doing. Each call is timed from its
// intended start, so a server stall shows up as latency even for the calls that were only waiting
// to be sent (no coordinated omission); the time from the actual send is recorded beside it.
// At most spec.workers calls are in flight; a call due while all are busy waits, and if it waits
// longer than spec.late_after it is counted late. Every call greets a name of its own (unless the
// client sends a user call: then its codec has judged each reply, and none is checked here).
#include <sys/prctl.h>
#include <time.h>

#include <bit>
#include <stdexcept>
#include <thread>

#include "wirebench/core/error.hpp"
#include "wirebench/core/loop_clock.hpp"
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

// Each call in flight has a slot, so that its completion captures only (this, slot) and the
// client's call_completion holds it inline, with no allocation. The driving thread takes free slots; a completion frees
// its slot last (release), after reading it. The ring has room for twice the calls allowed in
// flight, so a free slot is always near.
class open_loop_run {
 public:
  open_loop_run(protocol_client& client, const load_spec& spec)
      : client_(client),
        spec_(spec),
        check_greetings_(client.greets()),
        slots_(std::bit_ceil(std::max<std::size_t>(64, 2 * spec.workers))),
        recorder_(/*track_actual=*/true) {}

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
    double window_start_unix = 0;
    bool window_open = false;
    load_result result;
    std::string name;  // this call's name, built in place (capacity reused)

    while (auto offset = next_offset()) {
      const auto intended = start + *offset;
      const bool in_window = *offset >= spec_.warmup;
      if (in_window && !window_open) {
        sleep_until(window_opens);
        if (spec_.on_window) spec_.on_window(true);
        window_start = clock_type::now();
        window_start_unix = unix_seconds_now();
        window_open = true;
      }
      if (intended > clock_type::now()) sleep_until(intended);
      const std::size_t index = take_slot();
      const auto sent = clock_type::now();
      slot& s = slots_[index];
      s.seq = issued_;
      s.intended = intended;
      s.sent = sent;
      s.measured = in_window;
      s.late = sent - intended > spec_.late_after;
      if (in_window) ++result.planned;
      call_name(issued_++, spec_.payload_bytes, name);
      client_.async_greet(name, [this, index](std::error_code ec, std::string_view reply) {
        on_reply(index, ec, reply);
      });
    }
    if (!window_open) {  // a schedule with no call in the window (a rate below 1/duration)
      sleep_until(window_opens);
      if (spec_.on_window) spec_.on_window(true);
      window_start = clock_type::now();
      window_start_unix = unix_seconds_now();
    }
    if (clock_type::now() < window_closes) sleep_until(window_closes);
    const auto window_end = clock_type::now();
    if (spec_.on_window) spec_.on_window(false);
    while (recorder_.completions() < issued_) std::this_thread::sleep_for(100us);
    auto totals = recorder_.merged();
    result.latency = std::move(totals.latency);
    result.actual_latency = std::move(totals.actual_latency);
    result.outcomes = std::move(totals.outcomes);
    result.late = totals.late;
    result.window_seconds = std::chrono::duration<double>(window_end - window_start).count();
    result.window_start_unix = window_start_unix;
    return result;
  }

 private:
  struct alignas(64) slot {
    std::atomic<bool> busy{false};
    std::uint64_t seq = 0;
    clock_type::time_point intended, sent;
    bool measured = false;
    bool late = false;
  };

  // A free slot, once fewer than spec.workers calls are in flight (polled: a completion that woke
  // this thread would be a shared write per call).
  std::size_t take_slot() {
    while (issued_ - completed_seen_ >= spec_.workers) {
      completed_seen_ = recorder_.completions();
      if (issued_ - completed_seen_ >= spec_.workers) std::this_thread::sleep_for(20us);
    }
    for (;;) {
      const std::size_t i = cursor_++ & (slots_.size() - 1);
      if (!slots_[i].busy.load(std::memory_order_acquire)) {
        slots_[i].busy.store(true, std::memory_order_relaxed);
        return i;
      }
    }
  }

  // Call n greets "c<n>-" padded with 'x' to the payload size: a distinct name per call, so that
  // a reply that reaches the wrong call is caught.
  static void call_name(std::uint64_t n, std::size_t payload_bytes, std::string& out) {
    out.assign("c");
    out.append(std::to_string(n));
    out.push_back('-');
    if (out.size() < payload_bytes) out.resize(payload_bytes, 'x');
  }

  void on_reply(std::size_t index, std::error_code ec, std::string_view reply) {
    const auto now = loop_clock::now();  // when the reply was read
    slot& s = slots_[index];
    if (check_greetings_ && s.measured && !ec) {
      thread_local std::string expected;  // "hello, " + this call's name
      expected.assign("hello, ");
      thread_local std::string name;
      call_name(s.seq, spec_.payload_bytes, name);
      expected.append(name);
      if (reply != expected) ec = errc::wrong_reply;
    }
    const bool measured = s.measured, late = s.late;
    const auto intended = s.intended, sent = s.sent;
    s.busy.store(false, std::memory_order_release);  // the slot may be reused from here on
    recorder_.local().record(measured, ec, ns_between(intended, now), ns_between(sent, now), late,
                             reply);
  }

  protocol_client& client_;
  const load_spec& spec_;
  const bool check_greetings_;  // client_.greets(), asked once
  std::vector<slot> slots_;
  call_recorder recorder_;
  std::uint64_t issued_ = 0;          // driving thread only
  std::uint64_t completed_seen_ = 0;  // driving thread only
  std::size_t cursor_ = 0;            // driving thread only
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
