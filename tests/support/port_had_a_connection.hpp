#pragma once
// Whether a local TCP port has had a connection, read from /proc/net/tcp (IPv4): what a test waits
// on to know that a client it started in another process has reached a server, whatever that
// process's start-up took on a loaded machine.
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace wirebench::test {

// A connection to `local_port` in any state but LISTEN: established, closing, or in TIME_WAIT
// after its server closed it (a connection per call is gone within microseconds; its TIME_WAIT
// stays). A port the kernel picks (bind to port 0) has no such entries from before.
inline bool port_had_a_connection(std::uint16_t local_port) {
  std::ifstream table("/proc/net/tcp");
  std::string line;
  std::getline(table, line);  // the header
  while (std::getline(table, line)) {
    // "  0: 0100007F:9C41 0100007F:D2B6 01 ...": slot, local address:port, remote, state (hex).
    std::istringstream fields(line);
    std::string slot, local, remote, state;
    fields >> slot >> local >> remote >> state;
    const auto colon = local.find(':');
    if (colon == std::string::npos || state == "0A") continue;  // 0A: TCP_LISTEN
    if (std::stoul(local.substr(colon + 1), nullptr, 16) == local_port) return true;
  }
  return false;
}

}  // namespace wirebench::test
