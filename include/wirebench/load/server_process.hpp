#pragma once
// The server side of `wirebench run` on one machine: `wirebench serve` started as a child process,
// so that the server's CPU time is its own (cpu_usage.hpp) and not mixed with the generator's,
// and so that server and generator can be placed on different CPUs as separate hosts would be.
// The benchmarks start it too, for backends whose client and server share process-wide machinery
// (protocol::own_process_server). The server stops when the thread that started it exits.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>

#include "wirebench/core/child_process.hpp"

#include "wirebench/protocols/protocol.hpp"
#include "wirebench/transport/endpoint.hpp"

namespace wirebench {

struct server_process_options {
  std::string protocol;
  server_config config;  // all of it, as `serve` flags (to_args); listen port 0: the kernel picks
  std::chrono::seconds start_timeout{20};
  std::string program{};  // the `wirebench` executable; "" = this program
};

class server_process {
 public:
  // Starts the server and waits until it listens. Throws std::runtime_error carrying the server's
  // own error message when it cannot start.
  explicit server_process(const server_process_options& options);
  ~server_process();
  server_process(const server_process&) = delete;
  server_process& operator=(const server_process&) = delete;

  const endpoint& local_endpoint() const { return endpoint_; }
  pid_t pid() const { return child_ ? child_->pid() : -1; }
  // SIGTERM (a graceful stop, bounded by the config's grace), then SIGKILL if it has not exited
  // within the grace and 5 s more. Idempotent.
  void stop();

 private:
  std::string error_output() const;  // what the server wrote to stderr
  std::optional<child_process> child_;
  int stderr_fd_ = -1;
  std::chrono::steady_clock::duration grace_;
  endpoint endpoint_;
};

}  // namespace wirebench
