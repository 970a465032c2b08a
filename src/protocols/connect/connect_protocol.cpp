// `connect`: the greet call as a Connect unary call (connectrpc.com/docs/protocol) on our HTTP/2
// (nghttp2, protobuf; h2c, or TLS with ALPN h2), against the gRPC server, which answers Connect
// beside gRPC by content type (connect_dialect.cpp), as connect-go's servers do.
#include "connect_client_codec.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

void register_connect_protocol(protocol_registry& registry) {
  registry.add(grpc_wire::http2_entry(
      "connect",
      "Connect unary Echo.Greet (application/proto) on our HTTP/2 (nghttp2, protobuf; h2c, or TLS "
      "with ALPN h2), against the grpc server, which answers Connect too",
      [](const grpc_wire::http2_call_settings& call) {
        return connect::make_connect_client_codec({.call = call});
      }));
}

const protocol_registration connect_registration{66, register_connect_protocol};

}  // namespace
}  // namespace wirebench
