#pragma once
// Counters of a running server, read at any time from any thread. The transport (connection_server)
// keeps the connection counts; whoever owns the sessions (session_server) adds `requests`.
#include <cstdint>
#include <map>
#include <string>

namespace wirebench {

/// Counters of a running server, one snapshot (see above).
struct server_stats {
  /// Connections accepted since the server started.
  std::uint64_t accepted = 0;
  /// Connections open now.
  std::uint64_t active = 0;
  /// Requests taken in (answered, or handed to a worker).
  std::uint64_t requests = 0;
  /// A graceful stop's books: calls in flight when it began or taken in during its grace that
  /// were answered, and those still in flight when the grace ended (their connections closed).
  /// False where the server cannot tell (grpc++, redis-server).
  bool grace_counted = false;
  std::uint64_t grace_finished = 0;
  std::uint64_t grace_cut = 0;
  /// Connections refused at accept.
  std::uint64_t rejected_connections = 0;  // over max_connections
  /// Accepts that failed.
  std::uint64_t accept_errors = 0;         // e.g. out of file descriptors
  /// How many connections closed for each reason.
  std::map<std::string, std::uint64_t> close_reasons;  // error_name(reason) -> connections
};

}  // namespace wirebench
