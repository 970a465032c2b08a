#include "wirebench/protocols/input_file.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wirebench {
namespace {

std::string size_text(std::size_t bytes) {
  if (bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

// Closes the descriptor however the read ends.
struct descriptor {
  int fd;
  ~descriptor() { ::close(fd); }
};

}  // namespace

std::string read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
  const std::string named = (what.empty() ? "" : std::string(what) + " ") + path + ": ";
  auto refuse = [&](const std::string& why) -> std::invalid_argument { return std::invalid_argument(named + why); };
  const descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
  if (file.fd < 0) throw refuse(std::string("cannot read it: ") + std::strerror(errno));
  struct stat st{};
  if (::fstat(file.fd, &st) != 0) throw refuse(std::string("cannot read it: ") + std::strerror(errno));
  const bool regular = S_ISREG(st.st_mode);
  if (!regular && !S_ISFIFO(st.st_mode))
    throw refuse("not a file or a pipe: it has no end to read to");
  const std::string limit = "more than " + size_text(max_bytes) + ", the most read from such a file";
  if (regular && static_cast<std::size_t>(st.st_size) > max_bytes) throw refuse(limit);
  // Blocking from here: a pipe's writer may still be writing (O_NONBLOCK only kept open() from
  // waiting for a FIFO's writer to appear).
  ::fcntl(file.fd, F_SETFL, ::fcntl(file.fd, F_GETFL) & ~O_NONBLOCK);
  std::string text;
  text.resize(regular ? static_cast<std::size_t>(st.st_size) : 0);
  std::size_t have = 0;
  for (;;) {
    if (have == text.size()) {
      if (text.size() > max_bytes) throw refuse(limit);
      text.resize(std::min(max_bytes + 1, std::max<std::size_t>(2 * text.size(), 64 * 1024)));
    }
    const ssize_t n = ::read(file.fd, text.data() + have, text.size() - have);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw refuse(std::string("cannot read it: ") + std::strerror(errno));
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  if (have > max_bytes) throw refuse(limit);  // a regular file that grew while it was read
  text.resize(have);
  return text;
}

}  // namespace wirebench
