#pragma once
// The server side of `wirebench run` on one machine: `wirebench serve` started as a child process,
// so that the server's CPU time is its own (cpu_usage.hpp) and not mixed with the generator's,
// and so that server and generator can be placed on different CPUs as separate hosts would be.
// The benchmarks start it too, for backends whose client and server share process-wide machinery
// (reference_server::own_process_server). The server stops when the thread that started it exits.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "wirebench/core/child_process.hpp"
#include "wirebench/transport/endpoint.hpp"

namespace wirebench {

struct server_process_options {
  // The server's command line; the CLI's serve_command_line() (app/serve_command_line.hpp) makes
  // `wirebench serve`'s. Once listening, the server writes its endpoint, one line, to descriptor
  // server_process::ready_fd.
  std::vector<std::string> argv;
  // What the server is, in messages: "line" gives "the line server did not start: ...".
  std::string name;
  // What the server writes before each error message (the CLI's "wirebench: "), dropped when a
  // start-up failure quotes it.
  std::string error_prefix;
  // The server's own graceful stop (its config's grace): stop() waits that and 5 s more before
  // it kills the server.
  std::chrono::steady_clock::duration grace = std::chrono::seconds(5);
  std::chrono::seconds start_timeout{20};
};

class server_process {
 public:
  // Starts the server and waits until it listens. Throws std::runtime_error carrying the server's
  // own error message when it cannot start.
  // The descriptor the server writes its endpoint line to.
  static constexpr int ready_fd = 3;

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
