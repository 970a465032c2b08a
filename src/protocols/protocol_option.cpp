#include "wirebench/protocols/protocol_option.hpp"

#include <charconv>
#include <stdexcept>

namespace wirebench {

std::uint64_t parse_count(std::string_view text, std::uint64_t lo, std::uint64_t hi) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < lo || value > hi)
    throw std::invalid_argument("expected a whole number from " + std::to_string(lo) + " to " +
                                std::to_string(hi));
  return value;
}

protocol_option count_option(std::string flag, std::uint64_t lo, std::uint64_t hi, std::string help) {
  return {std::move(flag), "N", std::move(help),
          [lo, hi](std::string_view value) { parse_count(value, lo, hi); }};
}

std::uint64_t count_option_value(const protocol_option_values& values, std::string_view flag,
                                 std::uint64_t fallback, std::uint64_t lo, std::uint64_t hi) {
  const auto it = values.find(flag);
  if (it == values.end()) return fallback;
  try {
    return parse_count(it->second, lo, hi);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(flag) + " " + it->second + ": " + e.what());
  }
}

}  // namespace wirebench
