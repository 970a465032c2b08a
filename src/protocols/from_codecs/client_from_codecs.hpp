#pragma once
// What every backend whose client is a codec needs from the protocol-level client config: a greet
// client over the client engine. (Their servers: server_from_codecs.hpp.)
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include "wirebench/client/client_engine.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

// The client engine's settings that come straight from a protocol's client config. A call
// waits at most the reply timeout; a connection with calls pending that hears nothing for twice
// that is taken for dead and replaced. Twice, not once: with equal timers the connection's could
// fire first and take the call with it, so a reply that comes after its call's deadline would be
// lost instead of counted late. `default_depth` is the protocol's calls in flight per connection when not configured.
inline client_engine_config engine_config(const client_config& c, std::size_t default_depth,
                                          client_codec_factory codec) {
  client_engine_config e;
  e.connect = c.connect;
  e.connections = c.connections;
  e.threads = c.threads;
  e.cpus = c.cpus;
  e.connect_timeout = c.connect_timeout;
  e.silence_timeout = 2 * c.reply_timeout;
  e.max_in_flight = c.depth == 0 ? default_depth : c.depth;
  e.max_abandoned = std::clamp<std::size_t>(4 * e.max_in_flight, 64, 4096);
  // Calls wait for room on their connection; a load driver bounds how many it makes.
  e.max_queued = 1 << 20;
  e.wait_for_connection = c.wait_for_connection;
  e.keepalive = c.keepalive;
  e.codec = std::move(codec);
  return e;
}

// The greet call (or the user's call, for the codecs that take one) over the client engine: every
// backend whose client is a codec (line, length-prefixed, mux, msgpack-rpc, http1, http2, resp).
// Each call gets the config's reply timeout as its deadline.
class engine_greet_client final : public protocol_client {
 public:
  engine_greet_client(const client_config& c, client_engine_config e)
      : timeout_(c.reply_timeout), greets_(c.calls.empty()), engine_(std::move(e)) {}
  // Without a deadline, the engine's timeout overloads: a call made inside a loop's turn takes
  // its deadline from the turn's time, sparing a clock read.
  void async_greet(std::string_view name, call_options o, call_completion done) override {
    static_assert(call_options::any_lane == client_engine::any_lane);
    if (o.has_deadline()) return engine_.async_call(name, o.deadline, std::move(done), o.lane);
    engine_.async_call(name, timeout_, std::move(done), o.lane);
  }
  void close() override { engine_.close(); }
  client_counters counters() const override {
    const auto s = engine_.stats();
    return {s.late, s.unknown, s.connects, s.connect_failures, s.reconnects, s.resent,
            s.last_connect_error};
  }
  bool greets() const override { return greets_; }
  std::vector<asio::io_context*> event_loops() override { return engine_.loops(); }

 private:
  std::chrono::steady_clock::duration timeout_;
  bool greets_;  // false: the codec sends the user's call and judges its replies
  client_engine engine_;
};

// A backend's greet client: its codec factory (the registry's client_codecs) on the engine.
inline std::unique_ptr<protocol_client> make_client_from_codecs(const client_config& c,
                                                           std::size_t default_depth,
                                                           client_codec_factory codecs) {
  return std::make_unique<engine_greet_client>(c, engine_config(c, default_depth, std::move(codecs)));
}

}  // namespace wirebench
