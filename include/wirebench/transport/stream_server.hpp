#pragma once
// The server skeleton every stream protocol shares: a listener, an io_pool, one handler per
// connection (from a factory), a connection cap, counters, and a graceful stop.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "wirebench/core/server_stats.hpp"
#include "wirebench/transport/connection.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/io_pool.hpp"
#include "wirebench/transport/listener.hpp"

namespace wirebench {

struct stream_server_config {
  endpoint listen;
  io_pool_options pool;
  connection_config connection;
  std::size_t max_connections = 10000;
  duration drain_timeout = std::chrono::seconds(5);
};

class stream_server {
 public:
  // Called on the new connection's thread; returns the protocol's handler for it.
  using handler_factory = std::function<std::unique_ptr<connection_handler>()>;
  // The same, handed this server: a factory that needs the server (to count requests) must take
  // it from here, not from a pointer its owner is still assigning while connections arrive.
  using server_handler_factory = std::function<std::unique_ptr<connection_handler>(stream_server&)>;

  // Binds and starts serving; throws std::system_error if the endpoint cannot be bound.
  stream_server(stream_server_config config, handler_factory make_handler);
  stream_server(stream_server_config config, server_handler_factory make_handler);
  ~stream_server();

  endpoint local_endpoint() const { return listener_->local_endpoint(); }
  // Graceful: stop accepting, flush every connection's due replies and close it, wait up to
  // drain_timeout, then force-close the rest and join the threads. Idempotent; any thread but ours.
  void stop();
  server_stats stats() const;
  // Protocol handlers count the requests they answer (relaxed atomic: a statistic, not a fence).
  void count_requests(std::uint64_t n) { requests_.fetch_add(n, std::memory_order_relaxed); }

 private:
  class counted_handler;
  void on_accept(stream_socket socket);
  void on_closed(connection* c, std::error_code reason);

  stream_server_config config_;
  server_handler_factory make_handler_;
  io_pool pool_;
  std::unique_ptr<listener> listener_;

  std::atomic<std::uint64_t> accepted_{0};
  std::atomic<std::uint64_t> requests_{0};
  std::atomic<std::uint64_t> rejected_{0};
  mutable std::mutex mutex_;
  std::condition_variable all_closed_;
  std::unordered_map<connection*, std::weak_ptr<connection>> live_;
  std::map<std::string, std::uint64_t> close_reasons_;
  std::once_flag stopped_;
};

}  // namespace wirebench
