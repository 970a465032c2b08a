#include "wirebench/core/child_process.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <thread>

namespace wirebench {
namespace {

// An output of the child's: the descriptor given, or the file opened (ours to close), or none.
struct output {
  int fd = -1;
  bool owned = false;
};

output open_output(int fd, const std::string& path) {
  if (fd >= 0) return {fd, false};
  const int opened = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (opened < 0) throw std::system_error(errno, std::generic_category(), "cannot open " + path);
  return {opened, true};
}

// The program's path: as given when it names a directory, else the first executable match on
// PATH (looked up here, not in the child, where execvp's search is not async-signal-safe).
std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  for (std::size_t at = 0; at <= dirs.size();) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    const std::string candidate = (end == at ? "." : dirs.substr(at, end - at)) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    at = end + 1;
  }
  return name;  // not found: the exec fails and the child exits 127
}

int shell_status(int status) {
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

child_process::child_process(const child_options& o) {
  // Everything the child needs is made here, before fork: after it, only async-signal-safe calls.
  std::vector<std::string> args = o.argv;
  if (args.empty()) throw std::system_error(EINVAL, std::generic_category(), "no program to start");
  const std::string program = find_program(args.front());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const output out = open_output(o.stdout_fd, o.stdout_path);
  output err;
  try {
    err = open_output(o.stderr_fd, o.stderr_path);
  } catch (...) {
    if (out.owned) ::close(out.fd);
    throw;
  }
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  for (int cpu : o.cpus) CPU_SET(cpu, &cpus);
  // A passed descriptor may sit on a number another one takes: each goes through a copy above
  // every target first.
  int above = 3, keep = 3;  // keep: the lowest descriptor it does not get
  for (const auto& [ours, theirs] : o.pass_fds) {
    above = std::max({above, ours + 1, theirs + 1});
    keep = std::max(keep, theirs + 1);
  }
  std::vector<int> copies(o.pass_fds.size());

  pid_ = ::fork();
  if (pid_ == 0) {
    // If the thread that started us dies (a crashed test, a killed `run`), the kernel sends
    // SIGTERM: no orphan is left.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (!o.cpus.empty()) ::sched_setaffinity(0, sizeof cpus, &cpus);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);  // serve blocks its stop signals in every thread
    for (std::size_t k = 0; k < copies.size(); ++k)
      copies[k] = ::fcntl(o.pass_fds[k].first, F_DUPFD, above);
    ::dup2(null, 0);
    ::dup2(out.fd, 1);
    ::dup2(err.fd, 2);
    for (std::size_t k = 0; k < copies.size(); ++k)
      ::dup2(copies[k], o.pass_fds[k].second);  // dup2 clears close-on-exec
    ::close_range(static_cast<unsigned>(keep), ~0u, 0);  // none of our sockets lives on in it
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  const int fork_error = errno;
  if (null >= 0) ::close(null);
  if (out.owned) ::close(out.fd);
  if (err.owned) ::close(err.fd);
  if (pid_ < 0) throw std::system_error(fork_error, std::generic_category(), "fork");
}

child_process::~child_process() { stop(std::chrono::seconds(2)); }

int child_process::wait_for_exit(duration limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (pid_ > 0) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno == ECHILD)) {
      status_ = r == pid_ ? shell_status(status) : 127;
      pid_ = -1;
      break;
    }
    if (std::chrono::steady_clock::now() >= until) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return status_;
}

void child_process::signal(int signal) {
  if (pid_ > 0) ::kill(pid_, signal);
}

int child_process::stop(duration grace) {
  if (pid_ <= 0) return status_;
  ::kill(pid_, SIGTERM);
  if (wait_for_exit(grace) != -1) return status_;
  ::kill(pid_, SIGKILL);
  return wait_for_exit(std::chrono::seconds(10));
}

}  // namespace wirebench
