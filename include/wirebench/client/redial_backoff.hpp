#pragma once
// When the next dial may start, for a client that dials again after a failure: the wait after a
// failed dial doubles from `first` up to `longest`, and a connection that worked resets it, so
// that a server that is down, or accepts and closes, is not dialed in a tight loop. Sans-IO (the
// caller gives the time); one per connection slot (an engine lane, a resp-sync worker), not
// thread-safe.
#include <algorithm>
#include <chrono>

namespace wirebench {

/// The back-off between dials of one connection slot (see above).
class redial_backoff {
 public:
  using clock = std::chrono::steady_clock;

  /// The defaults are client_engine_config's (redial_backoff, max_redial_backoff).
  explicit redial_backoff(clock::duration first = std::chrono::milliseconds(10),
                          clock::duration longest = std::chrono::seconds(1))
      : first_(first), longest_(longest), wait_(first) {}

  /// A dial failed at `now` (or a connection ended without an answer): no dial before
  /// now + the wait, which then doubles.
  void failed(clock::time_point now) {
    next_dial_ = now + wait_;
    wait_ = std::min(wait_ * 2, longest_);
  }
  /// A connection worked: the next failure waits `first` again.
  void succeeded() { wait_ = first_; }
  /// No dial before this.
  clock::time_point next_dial() const { return next_dial_; }

 private:
  clock::duration first_, longest_, wait_;
  clock::time_point next_dial_{};
};

}  // namespace wirebench
