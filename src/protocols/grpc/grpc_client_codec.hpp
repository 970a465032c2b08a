#pragma once
// The `grpc` protocol's client codec: the greet call as gRPC unary Echo.Greet on our HTTP/2
// client core (../http2/h2_client_core.hpp). Sans-IO.
//
// Each call is a stream: POST /wirebench.echo.Echo/Greet with content-type application/grpc,
// te: trailers, user-agent, grpc-accept-encoding (identity and gzip: a gzip reply is inflated)
// and grpc-timeout (the call's deadline, so that the server stops waiting when the client does),
// and one GreetRequest message. The reply is the GreetReply's greeting when the trailers say
// grpc-status 0 and exactly one message came; a status other than
// OK fails the call with grpc_status_error (counted as status_NAME), its text the decoded
// grpc-message; an HTTP status other than 200 with unexpected_status (status_415); a response
// without grpc-status, or with a message that is not one GreetReply, with wrong_reply.
#include <chrono>
#include <cstddef>
#include <memory>

#include "wirebench/codec/client_codec.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::grpc_wire {

struct grpc_client_config {
  std::string authority;                       // :authority
  bool https = false;                          // :scheme https (TLS under the codec)
  std::size_t max_message_bytes = 4 * 1024 * 1024;  // the largest reply message accepted
  std::chrono::nanoseconds timeout{0};         // sent as grpc-timeout; 0: none
};

std::unique_ptr<client_codec> make_grpc_client_codec(const grpc_client_config& config);

}  // namespace wirebench::grpc_wire
