#pragma once
// Matches replies to the calls in flight on one connection: by request id (pending_table) or in
// request order (fifo_matcher, for protocols whose pipelining is ordered). One interface, so a
// client is the same code either way.
//
// Single-threaded: used only on its connection's thread. A matcher never runs a completion: every
// operation that ends calls hands their completions to the caller, who runs them once the matcher
// is consistent again (a completion may add the next call at once, and decoding must be over
// before any runs). Every call added leaves exactly once: taken with its reply, expired, canceled,
// or taken out by take_all(). A reply for a call that already left by expiry or cancel is counted
// as late and dropped.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "wirebench/core/api.hpp"
#include "wirebench/core/call_completion.hpp"

namespace wirebench {

/// How a reply met its call (take()).
enum class reply_match : std::uint8_t {
  completed,  // the call was pending: its completion was handed out
  late,       // the call had already completed (timeout, cancel): dropped, counted
  unknown,    // no such call was ever in flight (or, for FIFO, a reply out of order)
};

/// A call taken out of a matcher before any reply: what it takes to send it again elsewhere.
struct WIREBENCH_API unanswered_call {
  /// The call's request, as given to add().
  std::string request;
  /// Its completion, not yet run.
  call_completion done;
  /// Its deadline.
  std::chrono::steady_clock::time_point deadline;
  /// The token it was added with (see call_matcher::add()).
  const void* token = nullptr;
};

/// Matches replies to the calls in flight on one connection (see above). Single-threaded.
class WIREBENCH_API call_matcher {
 public:
  /// The clock deadlines are on.
  using clock = std::chrono::steady_clock;
  /// Virtual: matchers are used through this interface.
  virtual ~call_matcher() = default;

  /// Registers a call and returns the id to send it with (never 0), or 0 at the in-flight cap;
  /// `done` is moved from only when the call is taken. `token` (may be null) identifies the call
  /// to cancel(). `request` is copied into the call's slot (whose capacity is reused, so a steady
  /// load allocates nothing), for take_all().
  virtual std::uint32_t add(call_completion&& done, clock::time_point deadline, const void* token,
                            std::string_view request = {}) = 0;
  /// The reply for `id` arrived: on `completed`, the call's completion is moved into `done`.
  virtual reply_match take(std::uint32_t id, call_completion& done) = 0;
  /// The id whose reply is due next when replies come in request order (fifo_matcher); nullopt
  /// for matchers by id, or when nothing is outstanding.
  virtual std::optional<std::uint32_t> next_in_order() const { return std::nullopt; }
  /// Cancel after send: the call leaves with its completion moved into `done` (the caller
  /// completes it with errc::canceled); its reply will count as late. False if `id` is not pending
  /// for `token`.
  virtual bool cancel(std::uint32_t id, const void* token, call_completion& done) = 0;
  /// Every call whose deadline is at or before `now` leaves; their completions are appended to
  /// `expired` (the caller completes them with errc::timeout). Returns how many.
  virtual std::size_t expire(clock::time_point now, std::vector<call_completion>& expired) = 0;
  /// The earliest deadline of a call still pending (to arm the timer at); nullopt when none.
  virtual std::optional<clock::time_point> next_deadline() const = 0;
  /// Every pending call leaves, appended to `out` with its request (to fail, or to send again on
  /// another connection); calls already abandoned are forgotten (their replies will never come).
  virtual void take_all(std::vector<unanswered_call>& out) = 0;
  /// One pending call leaves the same way (a server that refused it unprocessed). False if `id`
  /// is not pending.
  virtual bool take_unanswered(std::uint32_t id, unanswered_call& out) = 0;

  /// Calls whose replies are still due. Not virtual: the engine asks before every call.
  std::size_t in_flight() const { return in_flight_; }
  /// Replies counted as late (reply_match::late).
  std::uint64_t late() const { return late_; }
  /// Replies counted as unknown (reply_match::unknown).
  std::uint64_t unknown() const { return unknown_; }

 protected:
  std::size_t in_flight_ = 0;  // kept by the implementation
  std::uint64_t late_ = 0;
  std::uint64_t unknown_ = 0;
};

/// Completes every call of `calls` with `ec` (after take_all: the matcher is already consistent).
inline void fail_calls(std::vector<unanswered_call>& calls, std::error_code ec,
                       std::string_view why = {}) {
  std::vector<unanswered_call> failing = std::move(calls);
  calls.clear();
  for (unanswered_call& c : failing) c.done(ec, why);
}

}  // namespace wirebench
