#pragma once
// A stream backend's protocol_server: the server skeleton with the backend's Session on every
// connection (under TLS when the config asks), set up from server_config. Listening once
// constructed.
#include <memory>
#include <string>

#include "wirebench/calls/request_dispatcher.hpp"
#include "wirebench/protocols/protocol.hpp"
#include "wirebench/tls/tls_context.hpp"
#include "wirebench/tls/tls_server_handler.hpp"
#include "wirebench/transport/server_skeleton.hpp"

namespace wirebench {

// The skeleton's settings from a backend's server config; `thread_name` names its threads.
inline server_skeleton_config skeleton_config(const server_config& c, std::string thread_name) {
  server_skeleton_config s;
  s.transport.listen = c.listen;
  s.transport.pool = {c.threads, c.cpus, std::move(thread_name)};
  s.transport.connection.idle_timeout = c.idle_timeout;
  s.transport.connection.read_timeout = c.read_timeout;
  s.transport.connection.write_timeout = c.write_timeout;
  s.transport.max_connections = c.max_connections;
  s.transport.grace = c.grace;
  s.workers = c.workers;
  return s;
}

// The TLS layer under every session when the config asks for TLS (c.tls.enabled): `alpn` is the
// protocol's (protocol::tls_alpn); `max_plain_bytes` the session's read buffer limit. Throws at
// start-up when the certificate or key cannot be used.
inline server_skeleton_config with_tls(server_skeleton_config s, const server_config& c,
                                       alpn_choice alpn, std::size_t max_plain_bytes) {
  if (!c.tls.enabled) return s;
  s.layer = [context = tls::make_server_context(c.tls, alpn), max_plain_bytes](
                std::unique_ptr<connection_handler> session) {
    return tls::make_tls_server_handler(std::move(session), context, max_plain_bytes);
  };
  return s;
}

template <skeleton_session Session>
class greet_server final : public protocol_server {
 public:
  // Throws at start-up, as protocol::make_server does. `tls_alpn`: the protocol's
  // (protocol::tls_alpn), used when the config asks for TLS.
  greet_server(const server_config& c, std::string thread_name, const typename Session::settings& s,
               alpn_choice tls_alpn = {})
      : skeleton_(with_tls(skeleton_config(c, std::move(thread_name)), c, tls_alpn,
                           Session::max_read_bytes(s)),
                  s) {}

  endpoint local_endpoint() const override { return skeleton_.local_endpoint(); }
  void stop() override { skeleton_.stop(); }
  void end_grace() override { skeleton_.end_grace(); }
  server_stats stats() const override { return skeleton_.stats(); }

 private:
  server_skeleton<Session> skeleton_;
};

// The greet call for a session that hands requests to a request_dispatcher (mux, msgpack-rpc):
// its reply, delayed by the config's service time.
inline dispatch_settings greet_dispatch(const server_config& c) {
  return {.handler = [](std::string_view name, std::error_code&) {
            return expected_greeting(name);
          },
          .handler_into = [](std::string_view name, std::string& reply, std::error_code&) {
            reply.append("hello, ").append(name);  // expected_greeting(), without a temporary
          },
          .service_time = c.service_time};
}

}  // namespace wirebench
