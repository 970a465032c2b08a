#pragma once
// A line server whose every answer a test scripts: for each request line, a function of (the
// connection's number, the request's number on it, the line) says what to do. Connections are
// served one thread each, with plain blocking sockets (deliberately not our transport). It binds
// 127.0.0.1 on a free port, or a Unix path given by the test (which may start it late, to play a
// server that comes back).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "wirebench/transport/endpoint.hpp"

namespace wirebench::test {

class scripted_line_server {
 public:
  struct action {
    enum kind { reply, reply_then_close, close_now, ignore } what = reply;
    std::string text;  // the reply line, without its '\n'
  };
  using script = std::function<action(int connection, int request, const std::string& line)>;

  // `unix_path` empty: TCP on a free loopback port.
  explicit scripted_line_server(script s, const std::string& unix_path = {}) : script_(std::move(s)) {
    if (unix_path.empty()) {
      listen_fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_in a{};
      a.sin_family = AF_INET;
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
      socklen_t len = sizeof(a);
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len);
      where_ = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(ntohs(a.sin_port)));
    } else {
      ::unlink(unix_path.c_str());
      listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_un a{};
      a.sun_family = AF_UNIX;
      unix_path.copy(a.sun_path, sizeof(a.sun_path) - 1);
      ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
      unix_path_ = unix_path;
      where_ = endpoint::parse_or_throw("unix:" + unix_path);
    }
    ::listen(listen_fd_, 64);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~scripted_line_server() {
    stopping_ = true;
    ::shutdown(listen_fd_, SHUT_RDWR);
    acceptor_.join();
    {
      std::lock_guard lock(mutex_);
      for (int fd : open_) ::shutdown(fd, SHUT_RDWR);
    }
    for (auto& t : sessions_) t.join();
    ::close(listen_fd_);
    if (!unix_path_.empty()) ::unlink(unix_path_.c_str());
  }
  endpoint where() const { return where_; }
  int accepted() const { return accepted_.load(); }
  int requests() const { return requests_.load(); }

 private:
  void accept_loop() {
    for (;;) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) < 0 || stopping_) return;
      if (p.revents == 0) continue;
      const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd < 0) {
        if (stopping_) return;
        continue;
      }
      const int n = accepted_++;
      std::lock_guard lock(mutex_);
      open_.push_back(fd);
      sessions_.emplace_back([this, fd, n] { serve(fd, n); });
    }
  }

  void serve(int fd, int connection) {
    std::string in;
    int request = 0;
    char buf[4096];
    bool open = true;
    while (open) {
      const ssize_t got = ::recv(fd, buf, sizeof buf, 0);
      if (got <= 0) break;
      in.append(buf, static_cast<std::size_t>(got));
      std::string out;
      for (auto nl = in.find('\n'); open && nl != std::string::npos; nl = in.find('\n')) {
        const std::string line = in.substr(0, nl);
        in.erase(0, nl + 1);
        ++requests_;
        const action a = script_(connection, request++, line);
        if (a.what == action::reply || a.what == action::reply_then_close) out += a.text + "\n";
        if (a.what == action::reply_then_close || a.what == action::close_now) open = false;
      }
      if (!out.empty()) ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
    }
    std::lock_guard lock(mutex_);
    std::erase(open_, fd);
    ::close(fd);
  }

  script script_;
  int listen_fd_ = -1;
  std::string unix_path_;
  endpoint where_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> accepted_{0};
  std::atomic<int> requests_{0};
  std::mutex mutex_;
  std::vector<int> open_;  // under mutex_
  std::vector<std::thread> sessions_;  // under mutex_ (joined after the acceptor stops)
  std::thread acceptor_;
};

}  // namespace wirebench::test
