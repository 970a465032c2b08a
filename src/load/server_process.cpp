#include "wirebench/load/server_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>
#include <vector>

namespace wirebench {

server_process::server_process(const server_process_options& o) : grace_(o.grace) {
  if (o.argv.empty()) throw std::invalid_argument("server_process: no command line");
  char stderr_path[] = "/tmp/wirebench-serve-XXXXXX";
  stderr_fd_ = mkostemp(stderr_path, O_CLOEXEC);
  if (stderr_fd_ < 0) throw std::runtime_error("cannot create a file for the server's messages");
  unlink(stderr_path);  // the descriptors keep it; nothing is left behind
  // The destructor does not run when the constructor throws: close what is open on the way out.
  auto fail = [this](const std::string& why) {
    child_.reset();
    close(stderr_fd_);
    stderr_fd_ = -1;
    return std::runtime_error(why);
  };
  int ready[2];
  if (pipe2(ready, O_CLOEXEC) != 0) throw fail("cannot create a pipe");

  child_options child;
  child.argv = o.argv;
  child.stderr_fd = stderr_fd_;
  child.pass_fds = {{ready[1], ready_fd}};
  try {
    child_.emplace(child);
  } catch (const std::system_error& e) {
    close(ready[0]);
    close(ready[1]);
    throw fail("cannot start '" + o.argv[0] + "': " + e.what());
  }
  close(ready[1]);

  // The endpoint line, or end-of-file when the server gave up.
  std::string line;
  const auto deadline = std::chrono::steady_clock::now() + o.start_timeout;
  while (line.find('\n') == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    pollfd p{ready[0], POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) == 0) break;
    char buffer[256];
    const ssize_t n = read(ready[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    line.append(buffer, static_cast<std::size_t>(n));
  }
  close(ready[0]);
  std::string why;
  auto parsed = line.find('\n') != std::string::npos
                    ? endpoint::parse(line.substr(0, line.find('\n')), &why)
                    : std::nullopt;
  if (!parsed) {
    stop();
    std::string message = error_output();
    while (!message.empty() && message.back() == '\n') message.pop_back();
    if (!o.error_prefix.empty() && message.starts_with(o.error_prefix))
      message.erase(0, o.error_prefix.size());
    throw fail("the " + o.name + " server did not start: " +
               (message.empty() ? "no endpoint within the start timeout" : message));
  }
  endpoint_ = *parsed;
}

server_process::~server_process() {
  stop();
  if (stderr_fd_ >= 0) close(stderr_fd_);
}

void server_process::stop() {
  // The margin: for the threads to join and the process to exit once the grace is over.
  if (child_) child_->stop(grace_ + std::chrono::seconds(5));
}

std::string server_process::error_output() const {
  std::string text;
  char buffer[4096];
  off_t at = 0;
  ssize_t n;
  while ((n = pread(stderr_fd_, buffer, sizeof buffer, at)) > 0) {
    text.append(buffer, static_cast<std::size_t>(n));
    at += n;
  }
  return text;
}

}  // namespace wirebench
