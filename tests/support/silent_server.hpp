#pragma once
// A server that accepts one connection, reads whatever arrives and never answers; the test decides
// when it dies (its connection shut down and its listener closed, as a killed process's kernel
// would: a client that dials again finds nobody).
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "support/loopback_listen.hpp"
#include "wirebench/transport/endpoint.hpp"

namespace wirebench::test {

class silent_server {
 public:
  silent_server() {
    const int listen_fd = listen_on_loopback(where_);
    listen_fd_ = listen_fd;
    reader_ = std::thread([this, listen_fd] {
      conn_fd_ = ::accept(listen_fd, nullptr, nullptr);
      char buf[65536];
      while (conn_fd_ >= 0 && ::recv(conn_fd_, buf, sizeof(buf), 0) > 0) bytes_ += 1;
    });
  }
  ~silent_server() {
    kill();
    reader_.join();
  }
  void kill() {
    if (conn_fd_ >= 0) ::shutdown(conn_fd_, SHUT_RDWR);
    if (const int fd = listen_fd_.exchange(-1); fd >= 0) {
      ::shutdown(fd, SHUT_RDWR);  // wakes an accept still waiting
      ::close(fd);
    }
  }
  endpoint where() const { return where_; }

 private:
  std::atomic<int> listen_fd_{-1};
  std::atomic<int> conn_fd_{-1};
  std::atomic<int> bytes_{0};
  endpoint where_;
  std::thread reader_;
};

}  // namespace wirebench::test
