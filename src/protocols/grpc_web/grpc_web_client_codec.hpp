#pragma once
// The `grpc-web` protocol's client codec: the greet call as gRPC-Web (grpc/grpc
// doc/PROTOCOL-WEB.md) unary Echo.Greet on our HTTP/2 client core (../http2/h2_client_core.hpp).
// Sans-IO.
//
// Each call is a stream: POST /wirebench.echo.Echo/Greet with content-type
// application/grpc-web+proto, x-grpc-web: 1, grpc-timeout (the call's deadline), and one
// enveloped GreetRequest. The reply is the GreetReply's greeting when the body holds exactly one
// message and then a trailers frame (flag 0x80; 0x81 gzip-compressed, as connect-go sends it when
// asked for gzip) saying grpc-status 0; a status other than OK, in
// that frame or in the headers of a Trailers-Only response, fails the call with it (counted as
// gRPC's status_NAME, for it is gRPC's status), its text the decoded grpc-message; an HTTP status
// other than 200 with unexpected_status; a body without a trailers frame, or anything after it,
// with wrong_reply. A gRPC-Web error is an HTTP 200 with the status in the body: a tool that
// counts HTTP statuses (h2load) would count it a success; this client does not.
#include <memory>

#include "../grpc/grpc_backend.hpp"
#include "wirebench/codec/client_codec.hpp"

namespace wirebench::grpc_web {

/// The timeout goes as grpc-timeout.
std::unique_ptr<client_codec> make_grpc_web_client_codec(const grpc_wire::http2_call_settings& config);

}  // namespace wirebench::grpc_web
