// `grpc`, `grpc-stream`, `grpc-batch`: the greet call over gRPC (doc/PROTOCOL-HTTP2.md) on our
// own HTTP/2 (nghttp2's sans-IO session, the http2 protocol's cores) and protobuf, as unary
// Echo.Greet calls, as id-multiplexed messages on an Echo.GreetStream, and as the same 10 to a
// message on an Echo.GreetBatchStream. Server and clients are codecs on the session server and
// the client engine, h2c or TLS with ALPN h2; one server answers all three. grpc++ is the
// reference implementation beside it (`grpcpp`, `grpcpp-stream`, `grpcpp-batch`, ../grpcpp).
#include <google/protobuf/stubs/common.h>
#include <nghttp2/nghttp2.h>

#include "grpc_backend.hpp"
#include "grpc_call.hpp"
#include "grpc_client_codec.hpp"
#include "grpc_dynamic_method.hpp"
#include "grpc_metadata.hpp"
#include "grpc_reflection_fetch.hpp"
#include "rpc_server_codec.hpp"
#include "../http2/h2_backend.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {

std::vector<std::pair<std::string, std::string>> grpc_wire::libraries() {
  return {{"nghttp2", nghttp2_version(0)->version_str},
          {"protobuf", google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION)}};
}

server_codec_factory grpc_wire::server_codecs(const server_config& c) {
  const grpc_server_config settings{.http2 = http2::session_config(c),
                                    .max_message_bytes = c.max_frame_bytes};
  return [settings] { return std::make_unique<rpc_server_codec>(settings); };
}

protocol_capabilities grpc_wire::http2_capabilities() {
  // The server's TLS offers http/1.1 after h2: Connect and gRPC-Web over HTTP/1.1 on its one port.
  return {.tls = true,
          .keepalive = true,
          .tls_alpn = {http2::tls_alpn.protocol, http2::tls_alpn.required, "http/1.1"},
          .engine_depth = 1024,
          .server_options = http2::server_options(),
          .fit_server_to_load = http2::fit_server_to_load};
}

namespace {

grpc_wire::grpc_client_config client_settings(const client_config& c) {
  return {.authority = http2::authority_for(c.connect),
          .https = c.tls.enabled,
          .max_message_bytes = c.max_frame_bytes,
          .timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(c.reply_timeout)};
}

// What the three share: the server, its options, TLS, the libraries.
protocol grpc_entry(std::string name, std::string summary,
                    std::function<client_codec_factory(const client_config&)> clients) {
  return {
      .name = std::move(name),
      .summary = std::move(summary),
      .libraries = grpc_wire::libraries,
      .can = grpc_wire::http2_capabilities(),
      .client_codecs = std::move(clients),
      .server_codecs = grpc_wire::server_codecs,
  };
}

}  // namespace

// The greet call, or the user's methods (--call with --proto or --reflect, or a mix of them), made
// once for every connection; with --reflect the server is asked once per service (over gRPC,
// whatever the wire: reflection is a gRPC service).
client_codec_factory grpc_wire::rpc_client_codecs(const client_config& c, const rpc_client_wire& wire,
                                                  bool http1) {
  grpc_client_config settings = client_settings(c);
  settings.wire = &wire;
  const auto methods = dynamic_methods(c.calls, [&c](const grpc_call& call) { return fetch_reflected_files(c, call); });
  for (std::size_t i = 0; i < c.calls.size(); ++i)
    settings.requests.push_back({.method = methods[i],
                                 .keyspace = c.calls[i].keyspace,
                                 .metadata = checked_metadata(*c.calls[i].as<grpc_call>())});
  if (http1) return [settings] { return make_rpc_http1_client_codec(settings); };
  return [settings] { return make_grpc_client_codec(settings); };
}

void grpc_wire::add_http_entries(protocol_registry& registry, const rpc_client_wire& wire) {
  protocol p = grpc_entry(std::string(wire.name()),
                          std::string(wire.summary()) +
                              " on our HTTP/2 (nghttp2, protobuf; h2c, or TLS with ALPN h2), against the "
                              "grpc server, which answers it too; --proto/--reflect user calls",
                          [&wire](const client_config& c) { return rpc_client_codecs(c, wire); });
  p.reference.server_of = "grpc";
  p.can.user_calls = &grpc_call_form();  // any method of a .proto, every shape
  registry.add(p);
  p.name = std::string(wire.name()) + "-h1";
  p.summary = std::string(wire.summary()) +
              " on our HTTP/1.1 (llhttp; keep-alive, pipelined; or TLS with ALPN http/1.1), against the grpc "
              "server on its one port; --proto/--reflect user calls (not bidirectional streams)";
  p.can.keepalive = false;
  p.can.tls_alpn = {"http/1.1", true};  // the server offers it after h2
  p.can.engine_depth = 1;  // one call in flight per connection, as http1's (pipelining: --depth)
  p.client_codecs = [&wire](const client_config& c) { return rpc_client_codecs(c, wire, true); };
  registry.add(std::move(p));
}

protocol grpc_wire::rpc_stream_entry(std::string name, std::string summary, std::size_t batch,
                                     const rpc_client_wire& wire) {
  protocol p = grpc_entry(std::move(name), std::move(summary),
                          [batch, &wire](const client_config& c) -> client_codec_factory {
                            grpc_client_config settings = client_settings(c);
                            settings.wire = &wire;
                            return [settings, batch] {
                              return grpc_wire::make_grpc_stream_client_codec(settings, batch);
                            };
                          });
  p.reference.server_of = "grpc";
  return p;
}

namespace {

// grpcpp-batch's batch, so that the two compare like for like.
constexpr std::size_t batch_size = 10;

// A stream client of `batch` calls per message on grpc's server, in gRPC's protocol.
protocol stream_entry(std::string name, std::string summary, std::size_t batch) {
  return grpc_wire::rpc_stream_entry(std::move(name), std::move(summary), batch, grpc_wire::grpc_client_wire());
}

void register_grpc_protocol(protocol_registry& registry) {
  protocol unary = grpc_entry("grpc",
                              "gRPC unary Echo.Greet(GreetRequest) -> GreetReply on our HTTP/2 "
                              "(nghttp2, protobuf; h2c, or TLS with ALPN h2), calls as streams on "
                              "one connection; --proto/--reflect user calls",
                              [](const client_config& c) {
                                return grpc_wire::rpc_client_codecs(c, grpc_wire::grpc_client_wire());
                              });
  unary.can.user_calls = &grpc_call_form();  // any method of a .proto, every shape
  registry.add(std::move(unary));
  registry.add(stream_entry("grpc-stream",
                            "gRPC bidi stream on our HTTP/2, Echo.GreetStream: one request per "
                            "message, matched by id",
                            1));
  registry.add(stream_entry("grpc-batch",
                            "gRPC bidi stream on our HTTP/2, Echo.GreetBatchStream: up to 10 "
                            "requests per message, by id",
                            batch_size));
}

const protocol_registration grpc_registration{65, register_grpc_protocol};

}  // namespace

}  // namespace wirebench
