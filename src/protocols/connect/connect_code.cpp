#include "connect_code.hpp"

#include <array>
#include <string>

#include "../grpc/status_names_category.hpp"

namespace wirebench::connect {
namespace {

using grpc_wire::status_names_category;

// By status_code's numbers; OK (0) has none.
constexpr std::array<std::string_view, 17> names = {
    "",          "canceled",       "unknown",           "invalid_argument", "deadline_exceeded",
    "not_found", "already_exists", "permission_denied", "resource_exhausted",
    "failed_precondition", "aborted", "out_of_range", "unimplemented", "internal", "unavailable",
    "data_loss", "unauthenticated"};

// The spec's table, by the same numbers.
constexpr std::array<int, 17> http_statuses = {200, 499, 500, 400, 504, 404, 409, 403, 429,
                                               400, 409, 400, 501, 500, 503, 500, 401};

}  // namespace

std::string_view code_name(status_code code) {
  const auto i = static_cast<std::size_t>(code);
  return i < names.size() ? names[i] : "unknown";
}

std::optional<status_code> parse_code(std::string_view name) {
  for (std::size_t i = 1; i < names.size(); ++i)
    if (names[i] == name) return static_cast<status_code>(i);
  return std::nullopt;
}

int http_status_of(status_code code) {
  const auto i = static_cast<std::size_t>(code);
  return i < http_statuses.size() ? http_statuses[i] : 500;
}

status_code code_of_http_status(int http_status) {
  switch (http_status) {
    case 400: return status_code::internal;
    case 401: return status_code::unauthenticated;
    case 403: return status_code::permission_denied;
    case 404: return status_code::unimplemented;
    case 429:
    case 502:
    case 503:
    case 504: return status_code::unavailable;
    default: return status_code::unknown;
  }
}

const std::error_category& connect_code_category() noexcept {
  // OK has no Connect name: a code 0 (which no failed call has) is counted as unknown's.
  static const status_names_category instance("wirebench.connect", "Connect code ", "connect_",
                                              [] {
                                                auto n = names;
                                                n[0] = "unknown";
                                                return n;
                                              }());
  return instance;
}

}  // namespace wirebench::connect
