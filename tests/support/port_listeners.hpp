#pragma once
// Who listens on a local TCP port now, read from /proc/net/tcp{,6} and /proc/*/fd: for a test's
// message when a server it killed seems to answer still (another process took its port?).
#include <dirent.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace wirebench::test {

// "pid 123 (wirebench serve --protocol http1 ...)" per listening socket on `port`, or "nobody".
inline std::string port_listeners(std::uint16_t port) {
  std::vector<std::string> inodes;
  for (const char* table_path : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream table(table_path);
    std::string line;
    std::getline(table, line);  // the header
    while (std::getline(table, line)) {
      // slot, local, remote, state, tx:rx, tr:when, retrnsmt, uid, timeout, inode
      std::istringstream fields(line);
      std::string slot, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
      fields >> slot >> local >> remote >> state >> queues >> timer >> retransmits >> uid >> timeout >> inode;
      const auto colon = local.rfind(':');
      if (colon == std::string::npos || state != "0A") continue;  // 0A: TCP_LISTEN
      if (std::stoul(local.substr(colon + 1), nullptr, 16) == port) inodes.push_back("socket:[" + inode + "]");
    }
  }
  if (inodes.empty()) return "nobody";
  std::string out;
  DIR* proc = ::opendir("/proc");
  while (dirent* p = proc ? ::readdir(proc) : nullptr) {
    const std::string pid = p->d_name;
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    DIR* fds = ::opendir(("/proc/" + pid + "/fd").c_str());
    while (dirent* fd = fds ? ::readdir(fds) : nullptr) {
      char target[128];
      const std::string link = "/proc/" + pid + "/fd/" + fd->d_name;
      const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
      if (n <= 0) continue;
      for (const std::string& inode : inodes) {
        if (inode != std::string(target, static_cast<std::size_t>(n))) continue;
        std::ifstream cmdline_file("/proc/" + pid + "/cmdline");
        std::string cmdline((std::istreambuf_iterator<char>(cmdline_file)), {});
        for (char& c : cmdline)
          if (c == '\0') c = ' ';
        out += (out.empty() ? "" : "; ") + ("pid " + pid + " (" + cmdline + ")");
      }
    }
    if (fds) ::closedir(fds);
  }
  if (proc) ::closedir(proc);
  return out.empty() ? std::to_string(inodes.size()) + " socket(s) of no process found" : out;
}

}  // namespace wirebench::test
