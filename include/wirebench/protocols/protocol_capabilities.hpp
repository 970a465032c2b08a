#pragma once
// What a protocol can do, as its registration declares it: the registry checks every config
// against it (refusing TLS, keep-alive, resync, an engine, an option or a user call the protocol
// does not have, rather than ignore them) and the load generator sizes its runs by it. Facts
// about servers we did not write are reference_server.hpp's.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "wirebench/protocols/protocol_option.hpp"
#include "wirebench/protocols/server_config.hpp"
#include "wirebench/protocols/user_call.hpp"
#include "wirebench/tls/tls_options.hpp"

namespace wirebench {

struct protocol_capabilities {
  // Calls in flight share one connection, answered in any order (ids or streams). The load
  // generator then puts every worker on one connection by default; otherwise (FIFO protocols)
  // it opens one connection per worker unless asked to pipeline (--depth). Set by the registry
  // from the client codec's reply_order where the protocol has codecs; declared where not.
  bool multiplexed = false;
  // Server implementations to choose from with server_config::engine, the default first; empty
  // when there is only one (then an engine name is refused).
  std::vector<std::string> server_engines = {};
  // Its server can listen on an abstract Unix socket (endpoint unix:@name); a real redis-server
  // cannot, and its make_server refuses one.
  bool abstract_sockets = true;
  // Its server honours server_config::on_oversize: under resync, a request over the limit gets
  // an error reply and the stream goes on (the stream framings). Others close the connection, and
  // the registry's make_server refuses resync for them rather than ignore it.
  bool resyncs_oversize = false;
  // Its server and client speak TLS when the config asks (tls.enabled). For a protocol without,
  // the registry's make_server and make_client refuse such a config (setting_error "tls"),
  // rather than serve or connect in plaintext. A client on the client engine gets TLS from the
  // registry (its codecs under tls_client_codec); a server on a codec from make_server_from_codecs
  // (tls_server_handler under the codec host).
  bool tls = false;
  // Its client and server send keep-alive pings when the config asks (client_config::keepalive,
  // server_config::keepalive); the registry refuses such a config for a protocol without
  // (setting_error "keepalive"), rather than ignore it.
  bool keepalive = false;
  // Its client opens a connection per call (http1-close): its reconnects are what it exists to
  // show, not a fault worth a warning.
  bool connection_per_call = false;
  // What its TLS negotiates with ALPN (the client offers it; the server must pass the same).
  alpn_choice tls_alpn = {};
  // Clients on the client engine: calls in flight per connection when client_config::depth is 0.
  std::size_t engine_depth = 1;
  // The user calls its client sends instead of the greet call (client_config::calls), one or a
  // mix of several, by its family's form (user_call_form.hpp: HTTP requests, RESP commands, ...);
  // none (then the registry refuses a config with a call).
  const user_call_form* user_calls = nullptr;
  // Settings of its server's own, each with its flag (protocol_option.hpp); none for most.
  std::vector<protocol_option> server_options = {};
  // A load run is about to keep up to `calls` calls in flight on each connection: sets what the
  // server must allow for that (HTTP/2, gRPC: the stream limit). Empty: nothing to set.
  std::function<void(server_config&, std::size_t calls)> fit_server_to_load = {};

  // The engine a server runs on when `asked` was asked for ("": the default); "" for a backend
  // with one server implementation.
  std::string engine_for(const std::string& asked) const {
    if (server_engines.empty()) return {};
    return asked.empty() ? server_engines.front() : asked;
  }
};

}  // namespace wirebench
