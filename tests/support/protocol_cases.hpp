#pragma once
// Parameters shared by the protocol tests: every registered protocol over every transport, and
// the exact request/reply bytes of each framing (what a foreign client would send).
#include <string>
#include <unistd.h>

#include "wirebench/protocols/registry.hpp"

namespace wirebench::test {

inline std::string transport_endpoint(const std::string& transport) {
  static int counter = 0;
  const std::string unique = std::to_string(::getpid()) + "-" + std::to_string(++counter);
  if (transport == "tcp") return "tcp://127.0.0.1:0";
  if (transport == "tcp6") return "tcp://[::1]:0";
  if (transport == "unix") return "unix:/tmp/wirebench-" + unique + ".sock";
  return "unix:@wirebench-" + unique;
}

// The bytes of a greet request for `name`, and of the reply to it, in the protocol's framing.
inline std::string frame_for(const std::string& protocol, const std::string& payload) {
  if (protocol == "line") return payload + "\n";
  std::string out(4, '\0');
  const auto n = static_cast<std::uint32_t>(payload.size());
  out[0] = static_cast<char>(n >> 24);
  out[1] = static_cast<char>(n >> 16);
  out[2] = static_cast<char>(n >> 8);
  out[3] = static_cast<char>(n);
  return out + payload;
}

}  // namespace wirebench::test
