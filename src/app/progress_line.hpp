#pragma once
// The line a long run keeps on stderr: which point, how far, how long to go. On a terminal it is
// redrawn in place every second; otherwise (a log file) one line per point is enough.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace wirebench::app {

class progress_line {
 public:
  // total_steps: point repeats in the run; step_seconds: the expected length of each.
  progress_line(std::size_t total_steps, double step_seconds, bool enabled);
  ~progress_line();  // clears the line
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;

  void begin_step(const std::string& what);  // e.g. "http2 closed workers=16 repeat 2/3"
  void note(const std::string& message);     // a message printed above the line

 private:
  void draw_locked();
  void tick();

  const std::size_t total_;
  const double step_seconds_;
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
};

}  // namespace wirebench::app
