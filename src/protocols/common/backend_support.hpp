#pragma once
// What every backend built on the shared pieces needs from the protocol-level configs: the
// transport settings of a server, and a greet client over the multiplexing client.
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "wirebench/mux/mux_client.hpp"
#include "wirebench/protocols/protocol.hpp"
#include "wirebench/transport/stream_server.hpp"

namespace wirebench {

// A server's transport from its protocol config; `max_read_bytes` bounds one connection's buffer.
inline stream_server_config transport_config(const server_config& c, std::string thread_name,
                                             std::size_t max_read_bytes) {
  stream_server_config s;
  s.listen = c.listen;
  s.pool = {c.threads, c.cpus, std::move(thread_name)};
  s.connection.max_read_bytes = max_read_bytes;
  s.connection.idle_timeout = c.idle_timeout;
  s.connection.read_timeout = c.read_timeout;
  s.connection.write_timeout = c.write_timeout;
  s.max_connections = c.max_connections;
  s.drain_timeout = c.drain_timeout;
  return s;
}

// A server that is a stream_server with one protocol handler (session) per connection, made by
// `make` on the connection's thread. The protocol's server for most stream backends.
class session_server final : public protocol_server {
 public:
  using session_factory = std::function<std::unique_ptr<connection_handler>(stream_server&)>;
  session_server(const stream_server_config& config, session_factory make)
      : server_(std::make_unique<stream_server>(config, std::move(make))) {}
  endpoint local_endpoint() const override { return server_->local_endpoint(); }
  void stop() override { server_->stop(); }
  server_stats stats() const override { return server_->stats(); }

 private:
  std::unique_ptr<stream_server> server_;
};

// The multiplexing client's settings that come straight from a protocol's client config.
inline mux_client_config multiplexing_config(const client_config& c) {
  mux_client_config m;
  m.connect = c.connect;
  m.connections = c.connections;
  m.threads = c.threads;
  m.cpus = c.cpus;
  m.max_frame_bytes = c.max_frame_bytes;
  m.connect_timeout = c.connect_timeout;
  return m;
}

// The greet call over a mux_client (mux, msgpack-rpc, http1, http2 differ only in its wire and
// limits): each call gets the config's reply timeout as its deadline.
class multiplexed_greet_client final : public protocol_client {
 public:
  multiplexed_greet_client(const client_config& c, mux_client_config m)
      : timeout_(c.reply_timeout), client_(std::move(m)) {}
  void async_greet(std::string_view name, call_completion done) override {
    client_.async_call(std::string(name), std::chrono::steady_clock::now() + timeout_, std::move(done));
  }
  void close() override { client_.close(); }
  client_counters counters() const override {
    const auto s = client_.stats();
    return {s.late, s.unknown};
  }

 private:
  std::chrono::steady_clock::duration timeout_;
  mux_client client_;
};

}  // namespace wirebench
