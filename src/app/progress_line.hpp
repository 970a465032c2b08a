#pragma once
// The line a long run keeps on stderr: which point, how far, how long to go, and on a terminal
// what the load is doing now (k6's and redis-benchmark's habit): the last second's calls/s, its
// failed calls and p99, and how much of the point is done (of -n, or of its duration). Redrawn
// in place every second on a terminal; otherwise (a log file) one line per point is enough.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "wirebench/load/live_counts.hpp"

namespace wirebench::app {

class progress_line {
 public:
  // total_steps: point repeats in the run; step_seconds: the expected length of each (with -n in
  // a closed loop, only its cap); step_calls: each one's call count (-n), or 0 when it runs for
  // its duration. With a count, a step's length is judged by the pace of its calls.
  progress_line(std::size_t total_steps, double step_seconds, std::uint64_t step_calls, bool enabled);
  ~progress_line();  // clears the line
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;

  void begin_step(const std::string& what);  // e.g. "http2 closed workers=16 repeat 2/3"
  void note(const std::string& message);     // a message printed above the line
  // The running step's live counts (load_spec::on_live), or an empty reader when it ends. Any
  // thread; the reader is called on the ticker's thread until it is taken back.
  void watch(std::function<live_counts()> read);
  // Whether it draws live figures (on a terminal, not -q): else nobody needs them kept.
  bool shows_live() const { return enabled_ && terminal_; }

 private:
  void draw_locked();
  void tick();

  const std::size_t total_;
  const double step_seconds_;
  const std::uint64_t step_calls_;
  const bool enabled_;
  const bool terminal_;
  const std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::size_t step_ = 0;
  double done_seconds_ = 0;  // elapsed when the current step began
  std::string what_;
  std::thread ticker_;
  // The live figures: the reader, its last reading and what the last second showed.
  std::function<live_counts()> read_;
  std::optional<live_counts> last_;
  std::chrono::steady_clock::time_point last_at_;
  std::string live_text_;
  double live_rate_ = 0;         // calls/s over the last second
  std::uint64_t live_done_ = 0;  // calls completed in the step
};

}  // namespace wirebench::app
