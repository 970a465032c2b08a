#include "grpc_status.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "status_names_category.hpp"

namespace wirebench::grpc_wire {
namespace {

constexpr std::array<std::string_view, 17> names = {
    "OK",           "CANCELLED",          "UNKNOWN",        "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED", "NOT_FOUND",     "ALREADY_EXISTS", "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED",  "OUT_OF_RANGE",
    "UNIMPLEMENTED", "INTERNAL",          "UNAVAILABLE",    "DATA_LOSS",
    "UNAUTHENTICATED"};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

// A call that ended with a gRPC status other than OK: counted as status_NAME, as HTTP's
// statuses are counted as status_404.
const std::error_category& grpc_status_category() noexcept {
  static const status_names_category instance("wirebench.grpc", "gRPC status ", "status_", names);
  return instance;
}

std::string_view status_name(status_code code) {
  const auto i = static_cast<std::size_t>(code);
  return i < names.size() ? names[i] : "UNKNOWN";
}

std::optional<status_code> parse_status(std::string_view text) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return std::nullopt;
  std::uint64_t n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = std::min<std::uint64_t>(n * 10 + static_cast<std::uint64_t>(c - '0'), names.size());
  }
  return n < names.size() ? static_cast<status_code>(n) : status_code::unknown;
}

void append_percent_encoded(std::string& out, std::string_view text) {
  constexpr char hex[] = "0123456789ABCDEF";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c <= 0x7e && c != '%') {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
}

std::string percent_decoded(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const int hi = text[i] == '%' && i + 2 < text.size() ? hex_value(text[i + 1]) : -1;
    const int lo = hi >= 0 ? hex_value(text[i + 2]) : -1;
    if (lo >= 0) {
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

}  // namespace wirebench::grpc_wire
