#pragma once
// A listening TCP socket on 127.0.0.1 at a free port, for the tests' hand-made servers.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <string>

#include "wirebench/transport/endpoint.hpp"

namespace wirebench::test {

// The listening descriptor (close-on-exec); `where` is set to its address.
inline int listen_on_loopback(endpoint& where) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
  ::listen(fd, 16);
  socklen_t len = sizeof(a);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  where = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(ntohs(a.sin_port)));
  return fd;
}

}  // namespace wirebench::test
