#include "grpc_timeout.hpp"

#include <array>
#include <cstdint>

namespace wirebench::grpc_wire {
namespace {

struct unit {
  char letter;
  std::int64_t nanoseconds;
};
// Finest first: format_timeout takes the first that fits.
constexpr std::array<unit, 6> units = {{{'n', 1},
                                        {'u', 1'000},
                                        {'m', 1'000'000},
                                        {'S', 1'000'000'000},
                                        {'M', 60'000'000'000},
                                        {'H', 3'600'000'000'000}}};
constexpr std::int64_t max_value = 99'999'999;  // 8 digits

}  // namespace

std::optional<std::chrono::nanoseconds> parse_timeout(std::string_view text) {
  if (text.size() < 2 || text.size() > 9) return std::nullopt;
  std::int64_t value = 0;
  for (const char c : text.substr(0, text.size() - 1)) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  for (const unit& u : units) {
    if (u.letter != text.back()) continue;
    // 99999999H is about 11 400 years: more than int64 nanoseconds hold (292 years). Saturate.
    constexpr auto most = std::chrono::nanoseconds::max();
    if (value > most.count() / u.nanoseconds) return most;
    return std::chrono::nanoseconds(value * u.nanoseconds);
  }
  return std::nullopt;
}

std::string format_timeout(std::chrono::nanoseconds timeout) {
  const std::int64_t ns = timeout.count() < 1 ? 1 : timeout.count();
  for (const unit& u : units) {
    const std::int64_t count = ns / u.nanoseconds + (ns % u.nanoseconds != 0 ? 1 : 0);
    if (count <= max_value) return std::to_string(count) + u.letter;
  }
  return std::to_string(max_value) + 'H';  // not reached: int64 nanoseconds are < 2.6M hours
}

}  // namespace wirebench::grpc_wire
