// `grpc-web`: the greet call as gRPC-Web (grpc/grpc doc/PROTOCOL-WEB.md, binary) on our HTTP/2
// (nghttp2, protobuf; h2c, or TLS with ALPN h2), and user calls of every shape (--call), against
// the gRPC server, which answers gRPC-Web (binary and text) beside gRPC and Connect by content
// type (grpc_web_dialect.cpp).
#include "grpc_web_wire.hpp"
#include "../grpc/grpc_backend.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

void register_grpc_web_protocol(protocol_registry& registry) {
  registry.add(grpc_wire::http2_entry("grpc-web",
                                      "gRPC-Web unary Echo.Greet (application/grpc-web+proto, the status in a "
                                      "trailers frame) on our HTTP/2, against the grpc server, which answers "
                                      "gRPC-Web too; --proto/--reflect user calls of every shape",
                                      grpc_web::client_wire()));
}

const protocol_registration grpc_web_registration{67, register_grpc_web_protocol};

}  // namespace
}  // namespace wirebench
