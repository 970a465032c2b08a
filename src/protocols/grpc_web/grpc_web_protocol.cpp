// `grpc-web`: the greet call as gRPC-Web (grpc/grpc doc/PROTOCOL-WEB.md, binary) on our HTTP/2
// (nghttp2, protobuf; h2c, or TLS with ALPN h2), and user calls of every shape (--call), against
// the gRPC server, which answers gRPC-Web (binary and text) beside gRPC and Connect by content
// type (grpc_web_dialect.cpp).
#include "grpc_web_wire.hpp"
#include "../grpc/grpc_backend.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

// `grpc-web`, `grpc-web-h1`, then text's `grpc-web-text`, `grpc-web-text-h1`.
const protocol_registration grpc_web_registration{67, [](protocol_registry& r) {
  grpc_wire::add_http_entries(r, grpc_web::client_wire(false));
  grpc_wire::add_http_entries(r, grpc_web::client_wire(true));
}};

}  // namespace
}  // namespace wirebench
