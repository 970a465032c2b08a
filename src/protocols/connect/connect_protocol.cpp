// `connect`: the greet call as a Connect unary call (connectrpc.com/docs/protocol) on our HTTP/2
// (nghttp2, protobuf; h2c, or TLS with ALPN h2), and user calls of every shape (--call), against
// the gRPC server, which answers Connect beside gRPC by content type (connect_dialect.cpp), as
// connect-go's servers do.
#include "connect_wire.hpp"
#include "../grpc/grpc_backend.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

const protocol_registration connect_registration{66, [](protocol_registry& r) { grpc_wire::add_http_entries(r, connect::client_wire()); }};

}  // namespace
}  // namespace wirebench
