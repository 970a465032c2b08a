#pragma once
// What a protocol's client is made with (protocol::make_client, protocol::client_codecs): where it
// dials, its connections, threads, limits, timeouts, TLS and keep-alive, and the user's calls.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <vector>

#include "wirebench/protocols/user_call.hpp"
#include "wirebench/tls/tls_options.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/keepalive.hpp"

namespace wirebench {

using namespace std::chrono_literals;

struct client_config {
  endpoint connect = endpoint::parse_or_throw("tcp://127.0.0.1:7000");
  std::size_t connections = 1;  // calls are spread round robin over the connections
  std::size_t threads = 1;      // event-loop threads for the connections
  std::vector<int> cpus;        // pin client threads (empty: no pinning)
  // The largest reply accepted (gRPC's receive limit): a larger one fails its call with
  // frame_too_long and closes the connection. Read buffers grow to what arrives, not to this.
  std::size_t max_frame_bytes = 4 * 1024 * 1024;
  // The replies are shown to a user (wirebench call), not only judged: a reply a protocol would
  // summarise on a load's hot path (a RESP array as "(array)") is rendered whole, as its own
  // tool shows it (redis-cli).
  bool show_replies = false;
  std::chrono::steady_clock::duration connect_timeout = 5s;
  // Each call's deadline (errc::timeout past it, whatever the server sends meanwhile); and with
  // calls pending and no byte from the server for this long, the connection is closed, its calls
  // fail with errc::timeout, and a new one takes its place.
  std::chrono::steady_clock::duration reply_timeout = 10s;
  // Calls in flight per connection: the pipelining depth (line, length-prefixed, http1, resp) or
  // the streams or ids in flight (mux, msgpack-rpc, http2, grpc streams). More calls wait for
  // room on their connection. 0: the protocol's default.
  std::size_t depth = 0;
  tls_options tls;
  // The user's calls, sent instead of the greet call: empty, the greet call; one, that call on
  // every call (the name each call is made with then only tells calls apart); several, a mix,
  // each call sending the one its payload names (user_call.hpp's request_payload). All of one
  // kind, which the protocol's entry accepts (protocol_capabilities::user_calls): the registry
  // refuses others (setting_error).
  std::vector<user_call> calls;
  // What a call does while its connection cannot be had: true waits in its connection's queue for
  // the next dial (failing with connect_failed if that dial fails, or at its deadline); false
  // fails at once with connect_failed while the connection backs off after a failed dial (gRPC's
  // fail-fast, the opposite of its wait-for-ready). A closed loop waits, so that a worker does not
  // spin on a dead server; an open loop fails fast, so that its schedule is never held up by one.
  bool wait_for_connection = true;
  // Keep-alive pings (transport/keepalive.hpp): a connection whose server answers none in time
  // closes, its calls failing with errc::keepalive_timeout, and is replaced. Off by default; only
  // protocols with a ping take it (protocol_capabilities::keepalive).
  keepalive_settings keepalive;
  // Set (non-zero: the signal's number) when the run was interrupted, or null: what a client's
  // start-up that waits on a server (gRPC's reflection) checks while it waits, so that SIGINT or
  // SIGTERM ends it there rather than after its own deadline.
  const std::atomic<int>* interrupted = nullptr;
};

}  // namespace wirebench
