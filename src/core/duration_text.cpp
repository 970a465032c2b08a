#include "wirebench/core/duration_text.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <utility>

namespace wirebench {

std::optional<std::chrono::nanoseconds> parse_duration(std::string_view text) {
  // Largest first: a piece's unit must come after the previous piece's ("1m30s", not "30s1m").
  static constexpr std::array<std::pair<std::string_view, std::int64_t>, 6> units = {{
      {"h", 3'600'000'000'000}, {"m", 60'000'000'000}, {"s", 1'000'000'000},
      {"ms", 1'000'000}, {"us", 1'000}, {"ns", 1}}};
  constexpr std::int64_t most = std::numeric_limits<std::int64_t>::max();
  if (text.empty()) return std::nullopt;
  std::int64_t total = 0;
  std::size_t next_unit = 0;  // the largest unit the next piece may have
  const char* at = text.data();
  const char* const end = text.data() + text.size();
  while (at != end) {
    if (*at < '0' || *at > '9') return std::nullopt;  // no sign, no blank, no fraction
    std::int64_t value = 0;
    const auto [after, ec] = std::from_chars(at, end, value);
    if (ec != std::errc{}) return std::nullopt;
    const char* unit_end = after;
    while (unit_end != end && (*unit_end < '0' || *unit_end > '9')) ++unit_end;
    const std::string_view unit(after, static_cast<std::size_t>(unit_end - after));
    std::size_t u = next_unit;
    while (u < units.size() && units[u].first != unit) ++u;
    if (u == units.size()) return std::nullopt;  // no unit, an unknown one, or one out of order
    const std::int64_t scale = units[u].second;
    if (value > most / scale || value * scale > most - total) return std::nullopt;
    total += value * scale;
    next_unit = u + 1;
    at = unit_end;
  }
  return std::chrono::nanoseconds(total);
}

std::string format_duration(std::chrono::nanoseconds d) {
  const std::int64_t ns = d.count();
  if (ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
  if (ns % 1'000 == 0) return std::to_string(ns / 1'000) + "us";
  return std::to_string(ns) + "ns";
}

std::string readable_duration(double ns) {
  char text[32];
  if (ns >= 1e9) std::snprintf(text, sizeof text, "%.3gs", ns / 1e9);
  else if (ns >= 1e6) std::snprintf(text, sizeof text, "%.3gms", ns / 1e6);
  else if (ns >= 1e3) std::snprintf(text, sizeof text, "%.3gus", ns / 1e3);
  else std::snprintf(text, sizeof text, "%.3gns", ns);
  return text;
}

}  // namespace wirebench
