#pragma once
// What kind of failure an error code is, whichever layer produced it: our errc, Asio's codes, or
// the standard's. Standalone Asio 1.22's system category ("asio.system") compares equal to no
// std::errc, and its end of stream is "asio.misc", so `ec == std::errc::operation_canceled` is
// false for an aborted Asio operation. These conditions are the one way to ask, for every
// operation of the library:
//   if (ec == wirebench::condition::canceled) ...   // canceled by the caller, or an aborted wait
//   if (ec == wirebench::condition::peer_gone) ...  // the peer closed, reset or left the stream
//   if (ec == wirebench::condition::timed_out) ...  // a deadline, idle, read, write or keep-alive
// Our own codes also compare equal to the standard's conditions where one fits: errc::canceled ==
// std::errc::operation_canceled, every timeout == std::errc::timed_out.
#include <system_error>

#include "wirebench/core/api.hpp"

namespace wirebench {

enum class condition : int {
  canceled = 1,  // errc::canceled, shutting_down; ECANCELED (Asio's operation_aborted)
  peer_gone,     // errc::peer_closed, connection_closed, truncated_frame; ECONNRESET, EPIPE,
                 // ECONNABORTED, Asio's eof
  timed_out,     // errc::timeout, idle_, read_, write_ and keepalive_timeout; ETIMEDOUT
};

/// The category of wirebench::condition (a single instance).
WIREBENCH_API const std::error_category& condition_category() noexcept;

/// Makes `c` a std::error_condition (found by ADL: `ec == condition::canceled`).
inline std::error_condition make_error_condition(condition c) noexcept {
  return {static_cast<int>(c), condition_category()};
}

/// The errno value `ec` carries when it is one (the system, generic or Asio's system category),
/// else 0: `system_errno(ec) == EMFILE` holds for Asio's codes as for the standard's.
WIREBENCH_API int system_errno(const std::error_code& ec) noexcept;

}  // namespace wirebench

/// Lets condition values convert implicitly to std::error_condition.
template <>
struct std::is_error_condition_enum<wirebench::condition> : std::true_type {};
