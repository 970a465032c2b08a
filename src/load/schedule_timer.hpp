#pragma once
// A one-shot timer for an open loop's schedule (open_loop_shard.hpp): a timerfd of its own,
// watched by the event loop it runs on. Arming it is one timerfd_settime. asio's steady_timer
// costs two per expiry: its reactor sets its shared timerfd to the next timer once one fires, and
// arming ours moves it back; on a virtual machine each is an exit to the hypervisor (a third of
// an open loop's client CPU at 50k calls/s here, by perf). The wait for the expiry is the
// transport's readable_wait, which asks epoll nothing per wait where asio's async_wait makes an
// EPOLL_CTL_MOD each time (one system call per call at an open loop's rates). Linux only, as
// the transport is.
//
// Threads: everything on the loop's thread. The expiry handler runs there, after the expiry or
// when cancel() aborts the wait (aborted = true); at most one wait is pending at a time.
#include <chrono>
#include <functional>

#include <system_error>

#include <asio/io_context.hpp>

#include "../transport/readable_wait.hpp"

namespace wirebench::detail {

class schedule_timer {
 public:
  using clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC in libstdc++, as the timerfd's
  // Runs on the loop's thread for each wait: after an expiry, or aborted by cancel().
  using handler = std::function<void(bool aborted)>;

  // Throws std::system_error when no timerfd can be made (start-up).
  schedule_timer(asio::io_context& loop, handler on_expiry);
  schedule_timer(const schedule_timer&) = delete;
  schedule_timer& operator=(const schedule_timer&) = delete;

  // Expires at `when` (at once if it has passed), replacing any earlier arming; the handler runs
  // once the loop sees it. Starts a wait unless one is pending.
  void arm(clock::time_point when);
  // Disarms, and aborts the pending wait (its handler runs with aborted = true).
  void cancel();
  // A wait is pending: its handler has still to run.
  bool waiting() const { return waiting_; }

 private:
  static void on_ready(void* self, std::error_code ec, bool);

  // The timerfd, held as a stream socket (asio's reactor watches any descriptor alike) so that
  // readable_wait can wait on it.
  stream_socket fd_;
  readable_wait wait_;
  handler on_expiry_;
  bool waiting_ = false;
};

}  // namespace wirebench::detail
