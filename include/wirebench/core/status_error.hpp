#pragma once
// A reply whose status is not the one the call expected (an HTTP 404 where a user call expects
// 200): an error code whose value is the status, in a category of its own, so that outcome
// counts keep each status apart ("status_404") and no status needs an enumerator.
#include <string_view>
#include <system_error>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// The category of unexpected_status() codes: the code's value is the status.
WIREBENCH_API const std::error_category& status_category() noexcept;

/// The call failed with this status (100..999).
inline std::error_code unexpected_status(int status) noexcept { return {status, status_category()}; }
/// The status of an unexpected_status code; 0 for any other code.
inline int unexpected_status_of(const std::error_code& ec) noexcept {
  return ec.category() == status_category() ? ec.value() : 0;
}
/// "status_404": the code's stable name (error_name uses it).
WIREBENCH_API std::string_view status_error_name(int status);

}  // namespace wirebench
