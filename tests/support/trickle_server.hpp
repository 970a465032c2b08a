#pragma once
// A server that lies or stalls in its answer: it accepts one connection and, once a request has
// arrived, writes fixed bytes back, all at once (gap 0) or one byte per `gap` (a server that
// trickles, so that no read ever times out). It never answers a second request; it stops sending
// and closes when the test ends.
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "support/loopback_listen.hpp"
#include "wirebench/transport/endpoint.hpp"

namespace wirebench::test {

class trickle_server {
 public:
  trickle_server(std::string answer, std::chrono::milliseconds gap)
      : answer_(std::move(answer)), gap_(gap) {
    listen_fd_ = listen_on_loopback(where_);
    thread_ = std::thread([this] { serve(); });
  }
  ~trickle_server() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    if (const int fd = conn_fd_.load(); fd >= 0) ::shutdown(fd, SHUT_RDWR);
    ::shutdown(listen_fd_, SHUT_RDWR);  // wakes an accept still waiting
    thread_.join();
    ::close(listen_fd_);
  }
  endpoint where() const { return where_; }

 private:
  void serve() {
    const int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) return;
    conn_fd_ = fd;
    char buf[65536];
    if (::recv(fd, buf, sizeof(buf), 0) > 0) {
      if (gap_.count() == 0) {
        ::send(fd, answer_.data(), answer_.size(), MSG_NOSIGNAL);
      } else {
        for (char byte : answer_) {
          std::unique_lock lock(mutex_);
          if (wake_.wait_for(lock, gap_, [this] { return stopping_; })) break;
          if (::send(fd, &byte, 1, MSG_NOSIGNAL) != 1) break;
        }
      }
      while (::recv(fd, buf, sizeof(buf), 0) > 0) {  // read on, answer nothing, until the end
      }
    }
    conn_fd_ = -1;
    ::close(fd);
  }

  std::string answer_;
  std::chrono::milliseconds gap_;
  int listen_fd_ = -1;
  std::atomic<int> conn_fd_{-1};
  endpoint where_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace wirebench::test
