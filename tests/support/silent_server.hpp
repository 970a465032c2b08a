#pragma once
// A server that accepts one connection, reads whatever arrives and never answers; the test decides
// when it dies (its connection shut down and its listener closed, as a killed process's kernel
// would: a client that dials again finds nobody).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "wirebench/transport/endpoint.hpp"

namespace wirebench::test {

class silent_server {
 public:
  silent_server() {
    const int listen_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    listen_fd_ = listen_fd;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(listen_fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    ::listen(listen_fd, 16);
    socklen_t len = sizeof(a);
    ::getsockname(listen_fd, reinterpret_cast<sockaddr*>(&a), &len);
    where_ = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(ntohs(a.sin_port)));
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
