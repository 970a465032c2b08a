#pragma once
// A stream server: a listener, an io_pool, one handler per connection (from a factory), a
// connection cap, connection counters, and a graceful stop. Protocol servers own one through
// server_skeleton, which adds the sessions' request count and a worker pool.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "wirebench/core/api.hpp"
#include "wirebench/core/server_stats.hpp"
#include "wirebench/transport/connection.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/io_pool.hpp"
#include "wirebench/transport/listener.hpp"

namespace wirebench {

/// Settings of a stream_server.
struct stream_server_config {
  /// Where to listen.
  endpoint listen;
  /// The transport threads.
  io_pool_options pool;
  /// Every connection's settings.
  connection_config connection;
  /// Connections open at once; one more is closed at accept and counted as rejected.
  std::size_t max_connections = 10000;
  /// How long stop() waits for connections to drain before force-closing them.
  duration grace = std::chrono::seconds(5);
};

/// A stream server (see above).
class WIREBENCH_API stream_server {
 public:
  /// Called on the new connection's thread, from start() on, on every pool thread at once;
  /// returns the protocol's handler for it, which the connection owns.
  using handler_factory = std::function<std::unique_ptr<connection_handler>()>;

  /// Starts the threads but does not listen: what `make_handler` uses may be set up until start().
  stream_server(stream_server_config config, handler_factory make_handler);
  /// Stops the server (stop()).
  ~stream_server();
  /// Not copyable.
  stream_server(const stream_server&) = delete;
  /// Not copyable.
  stream_server& operator=(const stream_server&) = delete;

  /// Binds and starts accepting; throws std::system_error naming the endpoint if it cannot bind.
  /// Once, before local_endpoint() and before other threads use the server.
  void start();
  /// The endpoint it listens on; only after start().
  endpoint local_endpoint() const { return listener_->local_endpoint(); }
  /// Graceful: stop accepting, flush every connection's due replies and close it, wait up to
  /// grace, then force-close the rest and join the threads. Idempotent; any thread but ours.
  void stop();
  /// Ends the grace of a stop() under way (or of the next one) at once: what is still in flight
  /// is cut. Any thread.
  void end_grace();
  /// `requests` is 0: handlers count their requests themselves (see server_skeleton).
  server_stats stats() const;

 private:
  class counted_handler;
  void on_accept(stream_socket socket);
  void on_closed(connection* c, std::error_code reason);

  stream_server_config config_;
  handler_factory make_handler_;
  io_pool pool_;
  std::unique_ptr<listener> listener_;

  std::atomic<std::uint64_t> accepted_{0};
  std::atomic<std::uint64_t> rejected_{0};
  mutable std::mutex mutex_;
  std::condition_variable all_closed_;
  std::unordered_map<connection*, std::weak_ptr<connection>> live_;
  std::map<std::string, std::uint64_t> close_reasons_;
  std::once_flag stopped_;
  bool grace_ended_ = false;  // under mutex_
};

}  // namespace wirebench
