#pragma once
// The interface every protocol backend implements: a server and a client for the greet call
// (request: a name; reply: "hello, <name>"), and for the protocols that have one, a client that
// sends the user's own call instead (user_call.hpp). The harness only ever talks to these types;
// it never branches on a protocol's name (h2load's Session interface, brpc's protocol table).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "wirebench/codec/client_codec.hpp"
#include "wirebench/codec/server_codec.hpp"
#include "wirebench/core/call_completion.hpp"
#include "wirebench/core/decode_result.hpp"
#include "wirebench/core/server_stats.hpp"
#include "wirebench/calls/service_time.hpp"
#include "wirebench/protocols/protocol_option.hpp"
#include "wirebench/protocols/user_call.hpp"
#include "wirebench/tls/tls_options.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/keepalive.hpp"

namespace asio {
class io_context;
}

namespace wirebench {

using namespace std::chrono_literals;

struct server_config {
  endpoint listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  std::size_t threads = 1;         // event-loop threads; connections are spread over them
  // Backends with more than one server implementation pick one by name (grpc: "cq" or
  // "callback"); empty: the backend's default. See protocol::server_engines.
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
  // The protocol's own settings, by flag (protocol::server_options): HTTP/2's windows, say. The
  // registry's make_server refuses one the protocol does not declare.
  protocol_option_values options;
  friend bool operator==(const server_config&, const server_config&) = default;
};

struct client_config {
  endpoint connect = endpoint::parse_or_throw("tcp://127.0.0.1:7000");
  std::size_t connections = 1;  // calls are spread round robin over the connections
  std::size_t threads = 1;      // event-loop threads for the connections
  std::vector<int> cpus;        // pin client threads (empty: no pinning)
  std::size_t max_frame_bytes = 64 * 1024 + 64;  // largest reply accepted
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
  // kind, which the protocol's entry accepts (protocol::user_calls), and several only where it
  // takes mixes (protocol::user_call_mixes): the registry refuses others (setting_error).
  std::vector<user_call> calls;
  // What a call does while its connection cannot be had: true waits in its connection's queue for
  // the next dial (failing with connect_failed if that dial fails, or at its deadline); false
  // fails at once with connect_failed while the connection backs off after a failed dial (gRPC's
  // fail-fast, the opposite of its wait-for-ready). A closed loop waits, so that a worker does not
  // spin on a dead server; an open loop fails fast, so that its schedule is never held up by one.
  bool wait_for_connection = true;
  // Keep-alive pings (transport/keepalive.hpp): a connection whose server answers none in time
  // closes, its calls failing with errc::keepalive_timeout, and is replaced. Off by default; only
  // protocols with a ping take it (protocol::keepalive).
  keepalive_settings keepalive;
};

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


// What a client saw beside its calls' outcomes, since it was made (any thread). Clients that do
// not match replies by id or own no connections (gRPC's channels, resp-sync's blocking sockets)
// leave the fields they cannot know at 0.
struct client_counters {
  std::uint64_t late_replies = 0;      // replies for calls that had timed out or been canceled
  std::uint64_t unknown_replies = 0;   // replies for no call ever issued (or out of order on a FIFO)
  std::uint64_t connects = 0;          // connections made
  std::uint64_t connect_failures = 0;  // dials that failed
  std::uint64_t reconnects = 0;        // connections made to replace one that closed or went away
  std::uint64_t resent = 0;            // calls sent again: the server had not processed them
  std::error_code last_connect_error;  // why the last failed dial failed
};

// How one call is made, beside its payload: by default, with the client's reply timeout, on any
// of its connections. Two words, passed by value: it is on every call's path.
struct call_options {
  static constexpr std::size_t any_lane = static_cast<std::size_t>(-1);
  // Fail with errc::timeout at this time rather than at the reply timeout from now: an open loop
  // gives a call that waited to be sent only the time it has left of its timeout from its
  // intended start. The clock's epoch: none. A client that cannot give a call a deadline of its
  // own (gRPC's streams) keeps its reply timeout.
  std::chrono::steady_clock::time_point deadline = {};
  // On connection `lane % connections`: a load driver keeps each caller on one connection, so
  // that `depth` callers share each. gRPC's streams take the lane as their stream; clients
  // without connections of their own (gRPC unary, resp-sync) ignore it.
  std::size_t lane = any_lane;

  bool has_deadline() const { return deadline != std::chrono::steady_clock::time_point{}; }
  bool has_lane() const { return lane != any_lane; }
};

// The completion rule, for every client. A call's completion runs exactly once, on one of the
// client's own threads, and never inside async_greet() itself (a failure known at once is posted),
// nor while the client is decoding (replies are decoded, then matched, then completed). So a
// completion may make the next call at once, with no recursion and no lock held; the load
// drivers rely on this. Only after close() has returned, when no client thread is left, does a
// call complete at once on the caller's thread, with connection_closed.
class protocol_client {
 public:
  virtual ~protocol_client() = default;
  // One greet call (or the user's call its payload names); callable from any thread, including
  // from inside a completion.
  virtual void async_greet(std::string_view name, call_options options, call_completion done) = 0;
  void async_greet(std::string_view name, call_completion done) {
    async_greet(name, {}, std::move(done));
  }
  // Closes every connection: pending calls fail with connection_closed. Joins the client's
  // threads, so never call it from inside a completion. Idempotent; the destructor calls it.
  virtual void close() = 0;
  virtual client_counters counters() const { return {}; }
  // The event loops the client runs its connections on, one per thread, each owning at least one
  // connection: a load driver that keeps its schedule on them makes calls that go out without
  // crossing a thread, and their completions run on the loop that made them. Empty for a client
  // whose threads are not Asio loops (gRPC's completion queues, resp-sync's blocking sockets).
  // Valid until close().
  virtual std::vector<asio::io_context*> event_loops() { return {}; }
  // True when every reply answers a greet call, which the harness checks against
  // expected_greeting(name); false for a client made with a user call (client_config::calls),
  // whose codec has judged each reply already (a reply it passes is the call's success).
  virtual bool greets() const { return true; }
};

// The greet call's bytes as a foreign peer writes them, written by hand from the protocol's
// specification (not by our codecs): the tests that speak a protocol byte by byte (exact bytes,
// lying servers, bad input) take them from here. `request`: the call for `name` as call `id`;
// `reply`: the server's answer carrying `greeting` (an HTTP Date header as the epoch's).
// `id` below 128 and text below 32 bytes suffice where a protocol's encoding would grow.
struct greet_wire {
  std::function<std::string(std::string_view name, std::uint32_t id)> request;
  std::function<std::string(std::string_view greeting, std::uint32_t id)> reply;
};

struct protocol {
  std::string name;
  std::string summary;
  // The protocol whose server this entry runs, when the two differ only in their clients
  // (http1-close: http1's server); empty for an entry with a server of its own. Tools that need
  // each server once (scripts/soak, through `wirebench list --json`) skip such entries.
  std::string server_of = {};
  // Calls in flight share one connection, answered in any order (ids or streams). The load
  // generator then puts every worker on one connection by default; otherwise (FIFO protocols)
  // it opens one connection per worker unless asked to pipeline (--depth).
  bool multiplexed = false;
  // Server implementations to choose from with server_config::engine, the default first; empty
  // when there is only one (then an engine name is refused).
  std::vector<std::string> server_engines = {};
  // The program its server runs when the server is not ours (a real redis-server, from the Debian
  // package of the same name): `serve` and the tests need it installed. Empty for our servers.
  std::string server_program = {};
  // Its server can listen on an abstract Unix socket (endpoint unix:@name); a real redis-server
  // cannot, and its make_server refuses one.
  bool abstract_sockets = true;
  // Its server honours server_config::on_oversize: under resync, a request over the limit gets
  // an error reply and the stream goes on (the stream framings). Others close the connection, and
  // the registry's make_server refuses resync for them rather than ignore it.
  bool resyncs_oversize = false;
  // Its client and server share process-wide machinery when both run in one process (gRPC core's
  // pollers and executor), which slows both: benchmarks then run the server as a child process.
  bool own_process_server = false;
  // Run once by a process that will run this protocol's clients, before it starts any thread
  // (`run`, `call`, the benchmarks): settings its library reads once, when it starts. gRPC: the
  // poller (grpc_client_polling.cpp). Empty for most.
  std::function<void()> prepare_client_process = {};
  // Its server and client speak TLS when the config asks (tls.enabled). For a protocol without,
  // the registry's make_server and make_client refuse such a config (setting_error "tls"),
  // rather than serve or connect in plaintext. A client on the client engine gets TLS from the
  // registry (its codecs under tls_client_codec); a server on a codec from make_codec_server
  // (tls_server_handler under the codec host).
  bool tls = false;
  // Its client and server send keep-alive pings when the config asks (client_config::keepalive,
  // server_config::keepalive); the registry refuses such a config for a protocol without
  // (setting_error "keepalive"), rather than ignore it.
  bool keepalive = false;
  // What its TLS negotiates with ALPN (the client offers it; the server must pass the same).
  alpn_choice tls_alpn = {};
  // Clients on the client engine: calls in flight per connection when client_config::depth is 0.
  std::size_t engine_depth = 1;
  // The user call its client sends instead of the greet call (client_config::calls), by its
  // family's form (user_call_form.hpp: HTTP requests, RESP commands, ...); none (then the
  // registry refuses a config with a call).
  const user_call_form* user_calls = nullptr;
  // Its client sends a mix of several user calls (client_config::calls).
  bool user_call_mixes = false;
  // The libraries it is built on, as (library, version) pairs for the results' `libraries` block
  // and `wirebench --version`: the runtime version where the library reports one, else the
  // headers'. Entries that share a library may each name it; library_versions() keeps one.
  std::function<std::vector<std::pair<std::string, std::string>>()> libraries = {};
  // Settings of its server's own, each with its flag (protocol_option.hpp); none for most.
  std::vector<protocol_option> server_options = {};
  // A load run is about to keep up to `calls` calls in flight on each connection: sets what the
  // server must allow for that (HTTP/2, gRPC: the stream limit). Empty: nothing to set.
  std::function<void(server_config&, std::size_t calls)> fit_server_to_load = {};
  // Its greet call's bytes, for tests; empty (both functions) when they cannot be written by
  // hand (HTTP/2's HPACK and handshake, gRPC's).
  greet_wire wire = {};
  // Both throw std::exception at start-up (bad config, an endpoint that cannot be bound).
  // A backend with client_codecs leaves make_client empty: the registry makes it, the codecs on
  // the client engine; one with server_codecs leaves make_server empty alike.
  std::function<std::unique_ptr<protocol_server>(const server_config&)> make_server = {};
  std::function<std::unique_ptr<protocol_client>(const client_config&)> make_client = {};
  // Clients on the client engine: the codec factory make_client runs its connections on, so the
  // codec can be driven alone (tests/fuzz). Empty for clients with a transport of their own
  // (gRPC, resp-sync).
  std::function<client_codec_factory(const client_config&)> client_codecs = {};
  // Servers on the server skeleton: the codec factory its connections run (codec/server_codec.hpp),
  // so that the codec can be driven alone (tests, the server-codec fuzz target). A backend with
  // server_codecs leaves make_server empty: the registry makes it, the codecs on the skeleton
  // (server/codec_session.hpp). Empty for servers of their own (grpc++, redis-server).
  std::function<server_codec_factory(const server_config&)> server_codecs = {};

  // The engine a server runs on when `asked` was asked for ("": the default); "" for a backend
  // with one server implementation.
  std::string engine_for(const std::string& asked) const {
    if (server_engines.empty()) return {};
    return asked.empty() ? server_engines.front() : asked;
  }
};

// The reply a correct server sends to a greet call, which the harness checks every reply against.
inline std::string expected_greeting(std::string_view name) {
  std::string reply = "hello, ";
  reply.append(name);
  return reply;
}

}  // namespace wirebench
