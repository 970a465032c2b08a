#pragma once
// Blocking hiredis contexts on our endpoints (TCP, Unix path, abstract Unix: hiredis 0.14 cannot
// name the last one, so we connect the socket ourselves and hand it over with redisConnectFd).
#include <chrono>
#include <system_error>

#include "wirebench/transport/endpoint.hpp"

struct redisContext;

namespace wirebench::resp {

// A new socket for `where` (close-on-exec), or -1.
int open_socket(const endpoint& where);
// Connects `fd` within `timeout`; errc::connect_failed (or the system error) if it cannot.
std::error_code connect_socket(int fd, const endpoint& where, std::chrono::steady_clock::duration timeout);
// A blocking context owning the connected `fd`, whose reads and writes give up after `timeout`
// (redisSetTimeout). Null on failure (fd is then still the caller's).
redisContext* adopt_socket(int fd, std::chrono::steady_clock::duration timeout);
// Sets how long one read or write on `c` may block (SO_RCVTIMEO and SO_SNDTIMEO).
void set_io_timeout(redisContext* c, std::chrono::steady_clock::duration timeout);
// open + connect + adopt; null on failure.
redisContext* connect_context(const endpoint& where, std::chrono::steady_clock::duration timeout);

// hiredis writes with write(2): on a connection the peer reset that raises SIGPIPE, which would
// kill the process. While one of these lives, SIGPIPE is blocked on this thread (write then fails
// with EPIPE), and a pending one is discarded when it ends.
class sigpipe_blocked {
 public:
  sigpipe_blocked();
  ~sigpipe_blocked();
  sigpipe_blocked(const sigpipe_blocked&) = delete;
  sigpipe_blocked& operator=(const sigpipe_blocked&) = delete;

 private:
  bool was_blocked_ = false;
};

}  // namespace wirebench::resp
