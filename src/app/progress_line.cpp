#include "progress_line.hpp"

#include <unistd.h>

#include <cstdio>

namespace wirebench::app {
namespace {

std::string clock_text(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  char text[32];
  if (s >= 3600)
    std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, s / 60 % 60);
  else if (s >= 60)
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%lds", s);
  return text;
}

}  // namespace

progress_line::progress_line(std::size_t total_steps, double step_seconds, bool enabled)
    : total_(total_steps),
      step_seconds_(step_seconds),
      // Short runs do without: a progress line is for runs longer than a few seconds.
      enabled_(enabled && static_cast<double>(total_steps) * step_seconds > 3.0),
      terminal_(isatty(STDERR_FILENO) == 1) {
  if (enabled_ && terminal_) ticker_ = std::thread([this] { tick(); });
}

progress_line::~progress_line() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
  if (enabled_ && terminal_) std::fprintf(stderr, "\r\033[K");
}

void progress_line::begin_step(const std::string& what) {
  std::lock_guard lock(mutex_);
  ++step_;
  what_ = what;
  done_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  if (enabled_) draw_locked();
}

void progress_line::note(const std::string& message) {
  std::lock_guard lock(mutex_);
  if (enabled_ && terminal_) std::fprintf(stderr, "\r\033[K");
  std::fprintf(stderr, "wirebench: %s\n", message.c_str());
  if (enabled_ && terminal_) draw_locked();
}

void progress_line::draw_locked() {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  // The estimate: every step at the pace of those finished (the planned length before any is).
  const double per_step =
      step_ > 1 ? done_seconds_ / static_cast<double>(step_ - 1) : step_seconds_;
  const double eta = per_step * static_cast<double>(total_) - elapsed;
  std::fprintf(stderr, "%s[%zu/%zu] %s  elapsed %s  ETA %s%s", terminal_ ? "\r\033[K" : "", step_,
               total_, what_.c_str(), clock_text(elapsed).c_str(),
               clock_text(eta > 0 ? eta : 0).c_str(), terminal_ ? "" : "\n");
  std::fflush(stderr);
}

void progress_line::tick() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; }))
    if (step_ > 0) draw_locked();
}

}  // namespace wirebench::app
