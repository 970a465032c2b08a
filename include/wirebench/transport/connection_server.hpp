#pragma once
// A connection server: a listener, an io_pool, one handler per connection (from a factory), a
// connection cap, connection counters, and a graceful stop. Protocol servers own one through
// session_server, which adds the sessions' request count and a worker pool.
//
// Where it runs: threads of its own (config.pool), or the caller's io_context (the constructor
// that takes its executor), which the caller runs on one thread at a time: the listener and
// every connection then live on that loop. There stop() does not wait: it stops accepting, begins
// every connection's drain, and returns; the loop ends the drain (connections that have not
// closed when the grace is over are closed), after which nothing of the server is left on it.
// What its connections need is shared with them, so the server may be destroyed before that.
#include <functional>
#include <mutex>
#include <memory>

#include "wirebench/core/api.hpp"
#include "wirebench/core/server_stats.hpp"
#include "wirebench/transport/connection.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/io_pool.hpp"
#include "wirebench/transport/listener.hpp"

namespace wirebench {

/// Settings of a connection_server.
struct connection_server_config {
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

/// A connection server (see above): it knows no protocol; session_server (server/) adds one.
class WIREBENCH_API connection_server {
 public:
  /// Called on the new connection's thread, from start() on, on every pool thread at once;
  /// returns the protocol's handler for it, which the connection owns.
  using handler_factory = std::function<std::unique_ptr<connection_handler>()>;

  /// Starts the threads but does not listen: what `make_handler` uses may be set up until start().
  connection_server(connection_server_config config, handler_factory make_handler);
  /// On `executor`'s io_context, which the caller runs (see above); config.pool is not used.
  connection_server(const asio::io_context::executor_type& executor, connection_server_config config,
                handler_factory make_handler);
  /// Stops the server (stop()).
  ~connection_server();
  /// Not copyable.
  connection_server(const connection_server&) = delete;
  /// Not copyable.
  connection_server& operator=(const connection_server&) = delete;

  /// Binds and starts accepting; throws std::system_error naming the endpoint if it cannot bind.
  /// Once, before local_endpoint() and before other threads use the server.
  void start();
  /// The endpoint it listens on; only after start().
  endpoint local_endpoint() const { return listener_->local_endpoint(); }
  /// Graceful: stop accepting, flush every connection's due replies and close it, wait up to
  /// grace, then force-close the rest and join the threads. Idempotent; any thread but ours. On a
  /// caller's io_context, from any thread, it begins that and returns: the loop finishes it.
  void stop();
  /// Ends the grace of a stop() under way (or of the next one) at once: what is still in flight
  /// is cut. Any thread.
  void end_grace();
  /// `requests` is 0: handlers count their requests themselves (see session_server).
  server_stats stats() const;

 private:
  struct state;  // what the connections share with the server (connection_server.cpp)
  class counted_handler;

  io_pool pool_;
  std::shared_ptr<state> state_;
  std::unique_ptr<listener> listener_;
  std::once_flag stopped_;
};

}  // namespace wirebench
