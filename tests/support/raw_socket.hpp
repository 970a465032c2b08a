#pragma once
// Blocking POSIX sockets for tests that play a misbehaving peer: send what we like, read until
// the server closes, or connect and do nothing at all. Deliberately not our transport.
#include <chrono>
#include <cstring>
#include <optional>
#include <string>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "wirebench/transport/endpoint.hpp"

namespace wirebench::test {

class raw_socket {
 public:
  explicit raw_socket(const endpoint& ep) {
    auto a = ep.to_asio();
    fd_ = ::socket(a.protocol().family(), SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd_ >= 0 && ::connect(fd_, a.data(), static_cast<socklen_t>(a.size())) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~raw_socket() { close(); }
  raw_socket(const raw_socket&) = delete;
  raw_socket(raw_socket&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }

  bool ok() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  // Closes with a RST instead of a FIN (SO_LINGER 0): a peer that vanished.
  void reset() {
    linger l{1, 0};
    ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
    close();
  }
  bool send_all(std::string_view data) {
    while (!data.empty()) {
      ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }
  // Reads until `want` bytes, EOF/error, or the timeout. Returns what arrived; *eof tells if the
  // peer closed.
  std::string read_for(std::chrono::milliseconds timeout, std::size_t want = SIZE_MAX,
                       bool* eof = nullptr) {
    std::string out;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    if (eof) *eof = false;
    while (out.size() < want) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
      char buf[65536];
      ssize_t n = ::recv(fd_, buf, std::min(sizeof(buf), want - out.size()), 0);
      if (n <= 0) {
        if (eof) *eof = true;
        break;
      }
      out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
  }
  // One line, CRLF included, read a byte at a time so that nothing after it is taken; what came
  // by the timeout if no CRLF did.
  std::string read_until_crlf(std::chrono::milliseconds timeout) {
    std::string out;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!out.ends_with("\r\n")) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      const std::string byte = read_for(left, 1);
      if (byte.empty()) break;
      out += byte;
    }
    return out;
  }
  // True if the peer closes (EOF or reset) within the timeout, discarding any data.
  bool closed_by_peer_within(std::chrono::milliseconds timeout) {
    bool eof = false;
    read_for(timeout, SIZE_MAX, &eof);
    return eof;
  }

 private:
  int fd_ = -1;
};

// A connected pair of plain stream descriptors, AF_UNIX (socketpair) or AF_INET (over loopback):
// fds[0] is the accepted end, fds[1] the connecting one. False if any step failed.
inline bool connected_pair(int family, int fds[2]) {
  if (family == AF_UNIX) return ::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0;
  const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  bool ok = ::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
            ::listen(listener, 1) == 0 &&
            ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  fds[1] = ok ? ::socket(AF_INET, SOCK_STREAM, 0) : -1;
  ok = ok && ::connect(fds[1], reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  fds[0] = ok ? ::accept(listener, nullptr, nullptr) : -1;
  ::close(listener);
  return ok && fds[0] >= 0;
}

// Raises the soft descriptor limit to the hard one; returns the new soft limit.
inline rlim_t raise_fd_limit() {
  rlimit r{};
  ::getrlimit(RLIMIT_NOFILE, &r);
  r.rlim_cur = r.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &r);
  ::getrlimit(RLIMIT_NOFILE, &r);
  return r.rlim_cur;
}

}  // namespace wirebench::test
