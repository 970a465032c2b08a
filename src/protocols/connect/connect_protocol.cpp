// `connect`: the greet call as a Connect unary call (connectrpc.com/docs/protocol) on our HTTP/2
// (nghttp2, protobuf; h2c, or TLS with ALPN h2), against the gRPC server, which answers Connect
// beside gRPC by content type (connect_dialect.cpp), as connect-go's servers do.
#include "connect_client_codec.hpp"
#include "../grpc/grpc_backend.hpp"
#include "../http2/h2_backend.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

client_codec_factory connect_client_codecs(const client_config& c) {
  const connect::connect_client_config settings{
      .authority = http2::authority_for(c.connect),
      .https = c.tls.enabled,
      .max_message_bytes = c.max_frame_bytes,
      .timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(c.reply_timeout)};
  return [settings] { return connect::make_connect_client_codec(settings); };
}

void register_connect_protocol(protocol_registry& registry) {
  registry.add({
      .name = "connect",
      .summary = "Connect unary Echo.Greet (application/proto) on our HTTP/2 (nghttp2, protobuf; h2c, "
                 "or TLS with ALPN h2), against the grpc server, which answers Connect too",
      .libraries = grpc_wire::libraries,
      .can = grpc_wire::http2_capabilities(),
      .reference = {.server_of = "grpc"},
      .client_codecs = connect_client_codecs,
      .server_codecs = grpc_wire::server_codecs,
  });
}

const protocol_registration connect_registration{66, register_connect_protocol};

}  // namespace
}  // namespace wirebench
