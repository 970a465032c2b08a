#pragma once
// gRPC's status codes (doc/statuscodes.md) and the text around them on the wire: the
// grpc-status trailer's number, the names results count failures by (status_UNIMPLEMENTED, as
// HTTP's status_404), and grpc-message's percent-encoding (doc/PROTOCOL-HTTP2.md: every byte
// outside 0x20-0x7E, and '%', as %XX of the UTF-8 bytes). Sans-IO.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace wirebench::grpc_wire {

/// The 17 codes, by their numbers on the wire.
enum class status_code : std::uint8_t {
  ok = 0,
  cancelled = 1,
  unknown = 2,
  invalid_argument = 3,
  deadline_exceeded = 4,
  not_found = 5,
  already_exists = 6,
  permission_denied = 7,
  resource_exhausted = 8,
  failed_precondition = 9,
  aborted = 10,
  out_of_range = 11,
  unimplemented = 12,
  internal = 13,
  unavailable = 14,
  data_loss = 15,
  unauthenticated = 16,
};

/// The category of a call that ended with a status other than OK: a code's value is the status,
/// its count's name status_NAME (status_UNIMPLEMENTED), its message "gRPC status NAME".
const std::error_category& grpc_status_category() noexcept;
inline std::error_code status_error(status_code code) noexcept {
  return {static_cast<int>(code), grpc_status_category()};
}

/// "OK", "CANCELLED", ... "UNAUTHENTICATED": the names in doc/statuscodes.md.
std::string_view status_name(status_code code);

/// A grpc-status value: decimal digits without sign or leading zeros. A number past 16 is
/// UNKNOWN, as grpc's clients read it; anything else that is not a number is no status (nullopt).
std::optional<status_code> parse_status(std::string_view text);

/// Appends `text` to `out` as grpc-message carries it: bytes outside 0x20-0x7E and '%' as %XX.
void append_percent_encoded(std::string& out, std::string_view text);

/// grpc-message as received, decoded: %XX becomes its byte; a '%' not followed by two hex digits
/// is kept as it is (the spec asks a receiver not to fail on a bad encoding).
std::string percent_decoded(std::string_view text);

}  // namespace wirebench::grpc_wire
