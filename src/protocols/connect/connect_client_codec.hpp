#pragma once
// The `connect` protocol's client codec: the greet call as a Connect unary call
// (connectrpc.com/docs/protocol) on our HTTP/2 client core (../http2/h2_client_core.hpp). Sans-IO.
//
// Each call is a stream: POST /wirebench.echo.Echo/Greet with content-type application/proto
// (or application/json), connect-protocol-version 1, connect-timeout-ms (the call's deadline, so
// that the server stops waiting when the client does), accept-encoding gzip, and the
// GreetRequest as the bare body. The reply is the GreetReply's greeting when the status is 200
// and the body one GreetReply (inflated when content-encoding says gzip); any other status fails
// the call with its Connect code (connect_error, counted as connect_NAME): the code of the JSON
// error in the body, or, when the body is none, the code the spec infers from the HTTP status.
#include <memory>

#include "connect_wire.hpp"
#include "../grpc/grpc_backend.hpp"
#include "wirebench/codec/client_codec.hpp"

namespace wirebench::connect {

struct connect_client_config {
  grpc_wire::http2_call_settings call;  // the timeout goes as connect-timeout-ms
  message_format format = message_format::proto;  // application/proto or application/json
};

std::unique_ptr<client_codec> make_connect_client_codec(const connect_client_config& config);

}  // namespace wirebench::connect
