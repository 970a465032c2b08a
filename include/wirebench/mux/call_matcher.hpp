#pragma once
// Matches replies to the calls in flight on one connection: by request id (pending_table) or in
// request order (fifo_matcher, for protocols whose pipelining is ordered). One interface, so a
// client is the same code either way.
//
// Single-threaded: used only on its connection's thread. Every call added completes exactly once:
// with its reply, timeout (deadline passed), canceled, or the error given to fail_all(). A reply
// for a call that already completed (timed out or canceled) is counted as late and dropped.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <system_error>

#include "wirebench/core/call_completion.hpp"

namespace wirebench {

enum class reply_match : std::uint8_t {
  completed,  // the call was pending; its completion ran
  late,       // the call had already completed (timeout, cancel): dropped, counted
  unknown,    // no such call was ever in flight (or, for FIFO, a reply out of order)
};

class call_matcher {
 public:
  using clock = std::chrono::steady_clock;
  virtual ~call_matcher() = default;

  // Registers a call and returns the id to send it with, or nullopt at the in-flight cap.
  // `token` (may be null) identifies the call to cancel().
  virtual std::optional<std::uint32_t> add(call_completion done, clock::time_point deadline,
                                           const void* token) = 0;
  virtual reply_match complete(std::uint32_t id, std::error_code ec, std::string_view reply) = 0;
  // Cancel after send: completes the call with errc::canceled; its reply will count as late.
  // False if `id` is not pending for `token`.
  virtual bool cancel(std::uint32_t id, const void* token) = 0;
  // Completes every call whose deadline is at or before `now` with errc::timeout.
  virtual std::size_t expire(clock::time_point now) = 0;
  virtual std::optional<clock::time_point> next_deadline() const = 0;
  // Fails every pending call with `ec`, exactly once. The calls are taken out of the matcher
  // before any completion runs, so a completion may add new calls.
  virtual void fail_all(std::error_code ec) = 0;

  virtual std::size_t in_flight() const = 0;  // calls whose replies are still due
  std::uint64_t late() const { return late_; }
  std::uint64_t unknown() const { return unknown_; }

 protected:
  std::uint64_t late_ = 0;
  std::uint64_t unknown_ = 0;
};

}  // namespace wirebench
