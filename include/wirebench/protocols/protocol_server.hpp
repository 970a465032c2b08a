#pragma once
// A protocol's running server, whatever made it (our session server, grpc++, a real
// redis-server): where it listens, its graceful stop, its counts.
#include "wirebench/core/server_stats.hpp"
#include "wirebench/transport/endpoint.hpp"

namespace wirebench {

class protocol_server {
 public:
  virtual ~protocol_server() = default;
  // Where it listens (the actual port when asked for port 0).
  virtual endpoint local_endpoint() const = 0;
  // Graceful stop: no new connections; each protocol's going-away signal; what clients sent
  // before it is read and answered; then every connection closes (forced after the grace) and
  // every thread is joined. Idempotent.
  virtual void stop() = 0;
  // Ends the grace of a stop() under way on another thread at once (a second signal): what is
  // still in flight is cut. Any thread. Servers that cannot (grpc++, redis-server) do nothing.
  virtual void end_grace() {}
  virtual server_stats stats() const = 0;
};

}  // namespace wirebench
