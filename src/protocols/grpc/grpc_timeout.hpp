#pragma once
// grpc-timeout (doc/PROTOCOL-HTTP2.md): TimeoutValue TimeoutUnit, at most 8 ASCII digits, then
// one of H M S m u n (hours, minutes, seconds, milli-, micro-, nanoseconds). Sans-IO.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace wirebench::grpc_wire {

/// The timeout a grpc-timeout value gives, or nullopt when it is not one (the server then
/// answers as to a malformed request).
std::optional<std::chrono::nanoseconds> parse_timeout(std::string_view text);

/// `timeout` as a grpc-timeout value: the finest unit whose count fits in 8 digits, rounded up,
/// so that the peer never sees less time than was given; at least 1n (a timeout of 0 or less).
std::string format_timeout(std::chrono::nanoseconds timeout);

}  // namespace wirebench::grpc_wire
