#pragma once
// wirebench's error codes. Hot paths report errors as std::error_code values in this category;
// exceptions are reserved for start-up (bad configuration, a port that cannot be bound) and main().
#include <string_view>
#include <system_error>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// wirebench's error codes, in error_category(); each converts to a std::error_code.
enum class errc : int {
  /// 0 is success, as for every std::error_code.
  frame_too_long = 1,   // a frame (or line) is longer than the configured limit
  corrupt_frame,        // bytes that cannot be a frame (e.g. a length that overflows)
  truncated_frame,      // the peer closed the stream in the middle of a frame
  timeout,              // a call's deadline passed
  idle_timeout,         // no traffic at all for the idle timeout
  read_timeout,         // a frame was started, or a reply awaited, and nothing arrived in time
  write_timeout,        // the peer did not take our bytes in time (slow consumer)
  canceled,             // the caller canceled the call
  connection_closed,    // the connection closed while the call was pending
  connect_failed,       // the connection could not be established
  rejected,             // over a configured limit (in-flight cap, connection cap)
  remote_error,         // the peer answered with an error reply
  unknown_id,           // a reply for an id that was never issued
  wrong_reply,          // a reply that does not answer the request (the harness checks every reply)
  late,                 // a reply for a call that already completed (timed out or canceled)
  shutting_down,        // the local side is stopping
  slow_consumer,        // more output buffered for the peer than the configured limit
  peer_closed,          // the peer closed the stream cleanly between frames
  protocol_error,       // the peer broke the protocol (wrong frame type, malformed message, ...)
  invalid_argument,     // a bad argument from the local caller (e.g. a line payload holding '\n')
  tls_failed,           // TLS handshake failure, a bad record, or no agreed ALPN protocol
  unfinished,           // still in flight when a load run had to end without it (its watchdog)
  keepalive_timeout,    // the peer answered no keep-alive ping in time: the connection is dead
};

/// The category of wirebench::errc codes (a single instance).
WIREBENCH_API const std::error_category& error_category() noexcept;

/// Makes `e` a std::error_code in error_category() (found by ADL for std::error_code{e}).
inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), error_category()};
}

/// Short stable name of a code ("frame_too_long"), used as a key in results and logs.
WIREBENCH_API std::string_view error_name(const std::error_code& ec);

}  // namespace wirebench

/// Lets errc values convert implicitly to std::error_code.
template <>
struct std::is_error_code_enum<wirebench::errc> : std::true_type {};
