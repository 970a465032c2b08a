#pragma once
// A program started as a child process and never left behind: the servers `wirebench run` and the
// benchmarks start (`wirebench serve`, redis-server) and the peer tools tests run (nghttpd, nginx,
// a Python peer). It dies with the thread that started it (PR_SET_PDEATHSIG), inherits none of
// our descriptors but those asked for, and is stopped (SIGTERM, then SIGKILL after a grace) and
// reaped when its object goes. Linux only, as the transport is.
//
// Threads: one owner. The start is fork + exec, with only async-signal-safe calls between them, so
// that it is safe from a process with many threads.
#include <sys/types.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// How a child is started.
struct child_options {
  /// The program and its arguments; a program without a '/' is looked for on PATH.
  std::vector<std::string> argv{};
  /// Where its standard output and error go: a file (created or truncated), "/dev/null" by
  /// default, or a descriptor of ours (>= 0 wins over the path).
  std::string stdout_path = "/dev/null";
  std::string stderr_path = "/dev/null";
  int stdout_fd = -1;
  int stderr_fd = -1;
  /// Descriptors of ours it gets, as (ours, its number): a pipe's end as its fd 3, say.
  std::vector<std::pair<int, int>> pass_fds{};
  /// CPUs it is pinned to (empty: those it inherits).
  std::vector<int> cpus{};
};

/// A child process (see above).
class WIREBENCH_API child_process {
 public:
  using duration = std::chrono::steady_clock::duration;

  /// Starts it. Throws std::system_error when it cannot (no fork, an output file that cannot be
  /// opened); a program that cannot be executed exits 127 instead, as a shell's would.
  explicit child_process(const child_options& options);
  /// stop() with a 2 s grace.
  ~child_process();
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  /// Its process id; -1 once it has been reaped.
  pid_t pid() const { return pid_; }
  /// Waits up to `limit` for it to exit and reaps it. Its exit status as a shell gives it (128 +
  /// the signal that ended it), -1 when it is still running, or its status again once reaped.
  int wait_for_exit(duration limit);
  /// True once it has exited (and then it is reaped).
  bool exited() { return wait_for_exit(duration::zero()) != -1; }
  /// Sends it `signal` while it runs.
  void signal(int signal);
  /// SIGTERM, then SIGKILL if it has not exited within `grace`; reaps it. Its exit status.
  /// Idempotent.
  int stop(duration grace);

 private:
  pid_t pid_ = -1;
  int status_ = -1;  // once reaped
};

}  // namespace wirebench
