#include "progress_line.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "wirebench/core/duration_text.hpp"


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

// "81.2k": three significant digits.
std::string count_text(double n) {
  char text[32];
  if (n >= 1e6) std::snprintf(text, sizeof text, "%.3gM", n / 1e6);
  else if (n >= 1e3) std::snprintf(text, sizeof text, "%.3gk", n / 1e3);
  else std::snprintf(text, sizeof text, "%.3g", n);
  return text;
}

}  // namespace

progress_line::progress_line(std::size_t total_steps, double step_seconds, std::uint64_t step_calls,
                             bool enabled)
    : total_(total_steps),
      step_seconds_(step_seconds),
      step_calls_(step_calls),
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
  live_text_.clear();
  live_rate_ = 0;
  live_done_ = 0;
  if (enabled_) draw_locked();
}

void progress_line::note(const std::string& message) {
  std::lock_guard lock(mutex_);
  if (enabled_ && terminal_) std::fprintf(stderr, "\r\033[K");
  std::fprintf(stderr, "wirebench: %s\n", message.c_str());
  if (enabled_ && terminal_) draw_locked();
}

void progress_line::watch(std::function<live_counts()> read) {
  std::lock_guard lock(mutex_);
  read_ = std::move(read);
  last_.reset();
}

void progress_line::draw_locked() {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const double in_step = elapsed - done_seconds_;
  // This step's length: with -n by its calls at the last second's pace (its duration is only a
  // cap), else as planned.
  double this_step = step_seconds_;
  if (step_calls_ > 0 && live_rate_ > 0)
    this_step = in_step + static_cast<double>(step_calls_ - std::min(live_done_, step_calls_)) / live_rate_;
  else if (step_calls_ > 0 && step_ > 1)  // no pace yet: as long as those finished
    this_step = done_seconds_ / static_cast<double>(step_ - 1);
  const double done_share =
      step_calls_ > 0 ? static_cast<double>(std::min(live_done_, step_calls_)) / static_cast<double>(step_calls_)
                      : std::min(1.0, in_step / step_seconds_);
  // The steps after this one at the pace of those finished (this one's estimate before any is).
  const double per_step = step_ > 1 ? done_seconds_ / static_cast<double>(step_ - 1) : this_step;
  const double eta = std::max(0.0, this_step - in_step) + per_step * static_cast<double>(total_ - step_);
  // With -n and no pace yet (nor a step finished), the only figure is the cap: none is shown.
  const bool eta_known = step_calls_ == 0 || live_rate_ > 0 || step_ > 1;
  const std::string live = live_text_.empty() ? "" : "  " + std::to_string(static_cast<int>(done_share * 100)) + "%" + live_text_;
  std::fprintf(stderr, "%s[%zu/%zu] %s%s  elapsed %s  ETA %s%s", terminal_ ? "\r\033[K" : "", step_, total_,
               what_.c_str(), terminal_ ? live.c_str() : "", clock_text(elapsed).c_str(), eta_known ? clock_text(eta).c_str() : "-",
               terminal_ ? "" : "\n");
  std::fflush(stderr);
}

void progress_line::tick() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; })) {
    if (step_ == 0) continue;
    if (read_) {
      // Read under the lock: watch() cannot take the reader back while it is in use.
      const live_counts now = read_();
      const auto at = std::chrono::steady_clock::now();
      if (last_) {
        const live_counts second = now.since(*last_);
        const double seconds = std::chrono::duration<double>(at - last_at_).count();
        live_rate_ = seconds > 0 ? static_cast<double>(second.completed) / seconds : 0;
        const auto p99 = second.percentile_ns(99);
        live_text_ = "  " + count_text(live_rate_) + " calls/s  p99 " +
                     (p99 ? readable_duration(static_cast<double>(*p99)) : std::string("-")) + "  failed " +
                     std::to_string(second.failed);
      }
      live_done_ = now.completed;
      last_ = now;
      last_at_ = at;
    }
    draw_locked();
  }
}

}  // namespace wirebench::app
