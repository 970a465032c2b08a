#pragma once
// One connection's server side under session_server: the protocol's connection_handler, which
// also counts the requests it takes in. It counts into itself; the session server takes the count after
// every on_data, so a session never reaches up into the server that owns it.
#include <cstdint>
#include <utility>

#include "wirebench/core/api.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench {

/// Base of a protocol's per-connection session under session_server (see above).
class WIREBENCH_API server_session : public connection_handler {
 protected:
  /// Inside on_data, on the connection's thread: `n` more requests taken in (answered, or handed
  /// to a worker). Counted in server_stats::requests.
  void count_requests(std::uint64_t n) { requests_ += n; }
  /// The count since the last call (the session server's, after each on_data).
  std::uint64_t take_requests() { return std::exchange(requests_, 0); }

 private:
  std::uint64_t requests_ = 0;
};

}  // namespace wirebench
