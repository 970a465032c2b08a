#pragma once
// Counters of a running server, read at any time from any thread. The transport (stream_server)
// keeps the connection counts; whoever owns the sessions (server_skeleton) adds `requests`.
#include <cstdint>
#include <map>
#include <string>

namespace wirebench {

struct server_stats {
  std::uint64_t accepted = 0;
  std::uint64_t active = 0;
  std::uint64_t requests = 0;
  std::uint64_t rejected_connections = 0;  // over max_connections
  std::uint64_t accept_errors = 0;         // e.g. out of file descriptors
  std::map<std::string, std::uint64_t> close_reasons;  // error_name(reason) -> connections
};

}  // namespace wirebench
