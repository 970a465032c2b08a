#pragma once
// An error category whose codes have stable names of their own, for outcome counts
// (error_name): the HTTP statuses ("status_404") and gRPC's ("status_UNIMPLEMENTED") are
// categories of this kind, defined where their protocols are, without core knowing them.
#include <string_view>
#include <system_error>

#include "wirebench/core/api.hpp"

namespace wirebench {

class WIREBENCH_API named_error_category : public std::error_category {
 public:
  /// The code's stable name: letters, digits and '_' only. A view that lives as long as the
  /// category (error_name hands it out; a failed call's path should not format text).
  virtual std::string_view code_name(int value) const noexcept = 0;
};

/// True when `ec` is in a named_error_category: a status the peer sent, not a local failure.
inline bool is_named_error(const std::error_code& ec) noexcept {
  return dynamic_cast<const named_error_category*>(&ec.category()) != nullptr;
}

}  // namespace wirebench
