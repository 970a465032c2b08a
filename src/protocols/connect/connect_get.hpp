#pragma once
// Connect's GET (connectrpc.com/docs/protocol, "Unary-Get-Request"): a unary call to a method with
// no side effects, its message in the query, so that HTTP caches and browsers can fetch it:
//   GET /pkg.Service/Method?connect=v1&encoding=proto&base64=1&compression=gzip&message=...
// Sans-IO: the query of a request's path in, the call's message and codec out.
#include <string>
#include <string_view>

#include "connect_code.hpp"
#include "../grpc/rpc_dialect.hpp"

namespace wirebench::connect {

/// True when `path`'s query asks for a Connect GET (it names an encoding and a message).
bool is_get_query(std::string_view path);

/// What a GET's query says: the codec, gzip, and the message (decoded: percent-encoding, then
/// base64 when base64=1).
struct get_query {
  grpc_wire::message_format format = grpc_wire::message_format::proto;
  bool gzip = false;
  std::string message;
};
/// Reads `path`'s query into `out`. ok, or the refusal: an encoding or compression we do not
/// speak (415 and unimplemented, as connect-go answers), a query that is malformed, a missing
/// message or a connect= other than v1 (invalid_argument, 400); `why` then says what.
status_code parse_get_query(std::string_view path, get_query& out, int& refusal_status, std::string& why);

}  // namespace wirebench::connect
