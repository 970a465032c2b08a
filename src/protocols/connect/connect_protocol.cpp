// `connect`: the greet call as a Connect unary call (connectrpc.com/docs/protocol) on our HTTP/2
// (nghttp2, protobuf; h2c, or TLS with ALPN h2), and user calls of every shape (--call), against
// the gRPC server, which answers Connect beside gRPC by content type (connect_dialect.cpp), as
// connect-go's servers do. `connect-stream`: calls as messages on one bidirectional Connect stream
// per connection, matched by id (grpc-stream's codec on Connect's wire).
#include "connect_wire.hpp"
#include "../grpc/grpc_backend.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

// `connect`, `connect-h1`, then JSON's `connect-json`, `connect-json-h1`, then `connect-stream`.
const protocol_registration connect_registration{66, [](protocol_registry& r) {
  grpc_wire::add_http_entries(r, connect::client_wire(connect::message_format::proto));
  grpc_wire::add_http_entries(r, connect::client_wire(connect::message_format::json));
  r.add(grpc_wire::rpc_stream_entry("connect-stream",
                                    "Connect bidi stream on our HTTP/2, Echo.GreetStream "
                                    "(application/connect+proto): one request per message, matched by id",
                                    1, connect::client_wire(connect::message_format::proto)));
}};

}  // namespace
}  // namespace wirebench
