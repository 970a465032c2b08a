#pragma once
// The time of the event-loop turn this thread is in. A connection reads the clock once per read
// and handles everything that read brought inside a turn stamped with that time; code running in
// the turn (decoding, completions, the calls they make) takes its "now" from it. Replies read
// together arrived together: one clock read serves them all (a read costs ~30 ns on a VM, per
// call at 1M calls/s that is 3% of a core), and a reply's time is when it was read, not when its
// turn got round to it. Outside a turn, now() is the clock's.
#include <chrono>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// The time of the event-loop turn this thread is in (see above). All state is thread_local.
class WIREBENCH_API loop_clock {
 public:
  /// The clock loop_clock reads.
  using clock = std::chrono::steady_clock;

  /// The current turn's time on this thread; outside a turn, clock::now().
  static clock::time_point now() { return depth_ > 0 ? time_ : clock::now(); }

  /// Marks a turn on this thread for its lifetime. Nested turns keep the outer turn's time.
  class turn {
   public:
    /// Opens a turn stamped `at`; inside an open turn on this thread, keeps the outer turn's time.
    explicit turn(clock::time_point at) {
      if (depth_++ == 0) time_ = at;
    }
    /// Closes the turn.
    ~turn() { --depth_; }
    /// Not copyable.
    turn(const turn&) = delete;
    /// Not copyable.
    turn& operator=(const turn&) = delete;
  };

 private:
  static inline thread_local int depth_ = 0;
  static inline thread_local clock::time_point time_{};
};

}  // namespace wirebench
