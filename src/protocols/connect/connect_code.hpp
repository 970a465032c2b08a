#pragma once
// The Connect protocol's error codes (connectrpc.com/docs/protocol, "Error Codes"): the same 16
// codes as gRPC's statuses, by the same numbers (grpc_status.hpp's status_code), written as
// lower-case names ("unavailable") in the JSON of an error, each with the HTTP status a unary
// error is sent with, and the code a client infers from an HTTP status when a response carries no
// Connect error. Results count a Connect failure as connect_NAME, beside gRPC's status_NAME.
// Sans-IO.
#include <optional>
#include <string_view>
#include <system_error>

#include "../grpc/grpc_status.hpp"

namespace wirebench::connect {

using grpc_wire::status_code;

/// "canceled", "unknown", ... "unauthenticated"; OK has no Connect name (nullopt's "").
std::string_view code_name(status_code code);
/// The code of a name as an error's "code" carries it; nullopt for any other text (and for OK,
/// which no error may carry).
std::optional<status_code> parse_code(std::string_view name);

/// The HTTP status a unary error with `code` is sent with (canceled 499 ... unauthenticated 401).
int http_status_of(status_code code);
/// The code a client infers from a non-200 HTTP status without a Connect error in the body.
status_code code_of_http_status(int http_status);

/// The category of a call that ended with a Connect error: a code's value is the status_code,
/// its count's name connect_NAME (connect_unavailable), its message "Connect code NAME".
const std::error_category& connect_code_category() noexcept;
inline std::error_code connect_error(status_code code) noexcept {
  return {static_cast<int>(code), connect_code_category()};
}

}  // namespace wirebench::connect
