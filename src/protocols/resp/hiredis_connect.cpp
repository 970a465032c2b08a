#include "hiredis_connect.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <ctime>

#include <hiredis/hiredis.h>

#include "wirebench/core/error.hpp"

namespace wirebench::resp {

int open_socket(const endpoint& where) {
  const auto a = where.to_asio();
  return ::socket(a.protocol().family(), SOCK_STREAM | SOCK_CLOEXEC, 0);
}

std::error_code connect_socket(int fd, const endpoint& where, std::chrono::steady_clock::duration timeout) {
  const auto a = where.to_asio();
  const int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  int rc = ::connect(fd, a.data(), static_cast<socklen_t>(a.size()));
  if (rc != 0 && errno == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count();
    rc = ::poll(&p, 1, static_cast<int>(ms)) == 1 ? 0 : -1;
    int err = 0;
    socklen_t len = sizeof(err);
    if (rc == 0 && (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0)) rc = -1;
  }
  if (rc != 0) return errc::connect_failed;
  ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  if (where.is_tcp()) {
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  }
  return {};
}

redisContext* adopt_socket(int fd, std::chrono::steady_clock::duration timeout) {
  redisContext* c = redisConnectFd(fd);
  if (c == nullptr || c->err) {
    if (c) {
      c->fd = -1;  // the caller still owns fd
      redisFree(c);
    }
    return nullptr;
  }
  // hiredis 0.14.1's reader has maxbuf (when an idle buffer is given back) but no maxelements
  // (hiredis >= 1.0): a client facing a server that may lie reads replies with reply_reader.
  c->reader->maxbuf = 64 * 1024;
  set_io_timeout(c, timeout);
  return c;
}

void set_io_timeout(redisContext* c, std::chrono::steady_clock::duration timeout) {
  // At least 1 us: a zero timeval would mean "wait forever".
  const auto us = std::max<std::int64_t>(
      1, std::chrono::duration_cast<std::chrono::microseconds>(timeout).count());
  redisSetTimeout(c, timeval{static_cast<time_t>(us / 1000000), static_cast<suseconds_t>(us % 1000000)});
}

redisContext* connect_context(const endpoint& where, std::chrono::steady_clock::duration timeout) {
  const int fd = open_socket(where);
  if (fd < 0) return nullptr;
  redisContext* c = connect_socket(fd, where, timeout) ? nullptr : adopt_socket(fd, timeout);
  if (c == nullptr) ::close(fd);
  return c;
}

sigpipe_blocked::sigpipe_blocked() {
  sigset_t pipe, old;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, &old);
  was_blocked_ = sigismember(&old, SIGPIPE) == 1;
}

sigpipe_blocked::~sigpipe_blocked() {
  if (was_blocked_) return;
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  const timespec now{0, 0};
  while (sigtimedwait(&pipe, nullptr, &now) == SIGPIPE) {
  }
  pthread_sigmask(SIG_UNBLOCK, &pipe, nullptr);
}

}  // namespace wirebench::resp
