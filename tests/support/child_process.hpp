#pragma once
// A peer tool (nghttpd, nginx, ...) run by a test: started as the library's child_process, killed
// and reaped when the test ends, so no process outlives it. Plus the helpers such tests need: is
// a tool installed, a free loopback port, wait until something listens there, run a shell command.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "wirebench/core/child_process.hpp"

namespace wirebench::test {

inline bool have_tool(const std::string& tool) {
  return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0;
}

// Runs a shell command; returns its standard output, and in *status its exit status (-1 when it
// could not run or did not exit normally).
inline std::string run_shell(const std::string& cmd, int* status = nullptr) {
  std::string out;
  FILE* f = ::popen(cmd.c_str(), "r");
  if (f == nullptr) {
    if (status) *status = -1;
    return out;
  }
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof(buf), f)) out.append(buf, n);
  const int rc = ::pclose(f);
  if (status) *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return out;
}

// A port nobody listens on right now (the kernel's choice; a peer tool needs a number up front).
inline int free_loopback_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

// True if something on 127.0.0.1:`port` accepts a connection now.
inline bool accepts_connections(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port));
  const bool up = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return up;
}

inline bool wait_for_listener(int port, std::chrono::milliseconds cap = std::chrono::seconds(10)) {
  const auto until = std::chrono::steady_clock::now() + cap;
  while (std::chrono::steady_clock::now() < until) {
    if (accepts_connections(port)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// The library's child_process (wirebench/core/child_process.hpp) as tests start one: argv, and
// files for its standard output and error (created or truncated), or nowhere: the tools' logs
// would interleave with the test's output. Stopped (SIGTERM, 2 s, SIGKILL) and reaped at the end.
class child_process : public wirebench::child_process {
 public:
  explicit child_process(std::vector<std::string> argv, const std::string& out = "/dev/null",
                         const std::string& err = "/dev/null")
      : wirebench::child_process(
            child_options{.argv = std::move(argv), .stdout_path = out, .stderr_path = err}) {}
};

}  // namespace wirebench::test
