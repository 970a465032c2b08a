#include "server_from_codecs.hpp"

#include "wirebench/server/codec_session.hpp"
#include "wirebench/tls/tls_context.hpp"
#include "wirebench/tls/tls_server_handler.hpp"
#include "wirebench/server/session_server.hpp"

namespace wirebench {
namespace {

// The session server's settings from a backend's server config; `thread_name` names its threads.
session_server_config session_server_config_of(const server_config& c, std::string thread_name) {
  session_server_config s;
  s.transport.listen = c.listen;
  s.transport.pool = {c.threads, c.cpus, std::move(thread_name)};
  s.transport.connection.idle_timeout = c.idle_timeout;
  s.transport.connection.read_timeout = c.read_timeout;
  s.transport.connection.write_timeout = c.write_timeout;
  s.transport.connection.keepalive = c.keepalive;
  s.transport.connection.keepalive.without_calls = true;  // idle clients are the ones to check
  s.transport.max_connections = c.max_connections;
  s.transport.grace = c.grace;
  s.workers = c.workers;
  return s;
}

// The TLS layer under every session when the config asks for TLS (c.tls.enabled): `alpn` is the
// protocol's (protocol_capabilities::tls_alpn); `max_plain_bytes` the session's read buffer limit. Throws at
// start-up when the certificate or key cannot be used.
session_server_config with_tls(session_server_config s, const server_config& c, alpn_choice alpn,
                                std::size_t max_plain_bytes) {
  if (!c.tls.enabled) return s;
  s.layer = [context = tls::make_server_context(c.tls, alpn), max_plain_bytes](
                std::unique_ptr<connection_handler> session) {
    return tls::make_tls_server_handler(std::move(session), context, max_plain_bytes);
  };
  return s;
}

// A protocol's greet server: the session server with the codec host on every connection. Listening once
// constructed.
class protocol_server_from_codecs final : public protocol_server {
 public:
  // Throws at start-up, as protocol::make_server does. `tls_alpn`: the protocol's
  // (protocol_capabilities::tls_alpn), used when the config asks for TLS.
  protocol_server_from_codecs(const server_config& c, std::string thread_name, codec_session::settings s,
               alpn_choice tls_alpn)
      : server_(with_tls(session_server_config_of(c, std::move(thread_name)), c, tls_alpn,
                           codec_session::max_read_bytes(s)),
                  std::move(s)) {}

  endpoint local_endpoint() const override { return server_.local_endpoint(); }
  void stop() override { server_.stop(); }
  void end_grace() override { server_.end_grace(); }
  server_stats stats() const override { return server_.stats(); }

 private:
  session_server<codec_session> server_;
};

// The greet call: its reply, delayed by the config's service time.
dispatch_settings greet_dispatch(const server_config& c) {
  return {.handler = [](std::string_view name, std::error_code&) {
            return expected_greeting(name);
          },
          .handler_into = [](std::string_view name, std::string& reply, std::error_code&) {
            reply.append("hello, ").append(name);  // expected_greeting(), without a temporary
          },
          .service_time = c.service_time};
}

}  // namespace

std::unique_ptr<protocol_server> make_server_from_codecs(const server_config& c,
                                                   server_codec_factory codecs, alpn_choice alpn,
                                                   std::string thread_name) {
  const std::size_t read_bytes = codecs()->max_read_bytes();  // one codec asked, then dropped
  return std::make_unique<protocol_server_from_codecs>(
      c, std::move(thread_name),
      codec_session::settings{.codecs = std::move(codecs),
                              .dispatch = greet_dispatch(c),
                              .max_read_bytes = read_bytes},
      alpn);
}

}  // namespace wirebench
