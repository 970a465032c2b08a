#include "schedule_timer.hpp"

#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <system_error>

namespace wirebench::detail {
namespace {

int make_timerfd() {
  const int fd = ::timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (fd < 0) throw std::system_error(errno, std::generic_category(), "timerfd_create");
  return fd;
}

}  // namespace

schedule_timer::schedule_timer(asio::io_context& loop, handler on_expiry)
    : fd_(loop, asio::generic::stream_protocol(AF_UNIX, SOCK_STREAM), make_timerfd()),
      wait_(fd_),
      on_expiry_(std::move(on_expiry)) {}

void schedule_timer::arm(clock::time_point when) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(when.time_since_epoch());
  itimerspec spec{};
  // 0 would disarm it: a time that has passed is the epoch's first nanosecond, which expires at
  // once all the same.
  const std::int64_t at = ns.count() > 0 ? ns.count() : 1;
  spec.it_value.tv_sec = static_cast<time_t>(at / 1'000'000'000);
  spec.it_value.tv_nsec = static_cast<long>(at % 1'000'000'000);
  ::timerfd_settime(fd_.native_handle(), TFD_TIMER_ABSTIME, &spec, nullptr);
  if (waiting_) return;
  waiting_ = true;
  // The loop sees the expiry in its next epoll_wait, after this handler returns: a wait started
  // here is always in place in time, even for a time that has already passed.
  // The expiry count is never read: asio watches the descriptor edge-triggered, and each expiry
  // is an edge of its own, readable or not (the kernel's timerfd wakes its waiters on every
  // expiry); a read per expiry would be a system call for nothing. The wait does not own us:
  // the shard waits for its handler before it goes.
  wait_.start(std::shared_ptr<void>(std::shared_ptr<void>(), this), &schedule_timer::on_ready);
}

// On the loop's thread: the expiry, or the wait aborted by cancel() (or by the loop's end, when
// the handler never runs).
void schedule_timer::on_ready(void* self, std::error_code ec, bool) {
  auto* timer = static_cast<schedule_timer*>(self);
  timer->waiting_ = false;
  timer->on_expiry_(ec == asio::error::operation_aborted);
}

void schedule_timer::cancel() {
  itimerspec off{};
  ::timerfd_settime(fd_.native_handle(), 0, &off, nullptr);
  std::error_code ignored;
  fd_.cancel(ignored);
}

}  // namespace wirebench::detail
