#pragma once
// What a protocol's server is made with (protocol::make_server, protocol::server_codecs): where it
// listens, its threads, limits, timeouts, TLS and keep-alive, and its own settings by flag.
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "wirebench/calls/service_time.hpp"
#include "wirebench/core/decode_result.hpp"
#include "wirebench/protocols/protocol_option.hpp"
#include "wirebench/tls/tls_options.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/keepalive.hpp"

namespace wirebench {

using namespace std::chrono_literals;

struct server_config {
  endpoint listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  std::size_t threads = 1;         // event-loop threads; connections are spread over them
  // Backends with more than one server implementation pick one by name (grpc: "cq" or
  // "callback"); empty: the backend's default. See protocol_capabilities::server_engines.
  std::string engine;
  // Servers on a server codec (protocol::server_codecs: all but grpc++ and redis-server) honour
  // these two.
  // workers = 0: replies are computed on the event-loop thread, as the other backends do.
  std::size_t workers = 0;
  service_time_model service_time;  // added time per request (none by default)
  std::vector<int> cpus;           // pin server threads (empty: no pinning)
  std::size_t max_frame_bytes = 64 * 1024;  // largest request accepted
  oversize_policy on_oversize = oversize_policy::fail;  // resync: reply with an error and go on
  std::size_t max_connections = 10000;  // past this, new connections are closed at once
  std::chrono::steady_clock::duration idle_timeout = 300s;  // no traffic at all
  std::chrono::steady_clock::duration read_timeout = 30s;   // a request started but not finished
  std::chrono::steady_clock::duration write_timeout = 30s;  // a client not reading its replies
  std::chrono::steady_clock::duration grace = 5s;  // graceful stop: then force-close (0: at once)
  tls_options tls;
  // Keep-alive pings to every connection (transport/keepalive.hpp; without_calls does not apply:
  // an idle connection is pinged too): one whose client answers none in time closes
  // (close reason keepalive_timeout). Off by default; only protocols with a ping take it.
  keepalive_settings keepalive;
  // The protocol's own settings, by flag (protocol_capabilities::server_options): HTTP/2's windows, say. The
  // registry's make_server refuses one the protocol does not declare.
  protocol_option_values options;
  friend bool operator==(const server_config&, const server_config&) = default;
};

}  // namespace wirebench
