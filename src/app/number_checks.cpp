#include "number_checks.hpp"

#include <cstdio>
#include <optional>
#include <stdexcept>

namespace wirebench::app {
namespace {

std::string shown(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", x);
  return text;
}

// The option's value as a number, or nullopt when it is not one (CLI11 says so itself later).
std::optional<double> number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double x = std::stod(text, &used);
    if (used == text.size()) return x;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

}  // namespace

CLI::Validator above_zero() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        const auto x = number(text);
        if (!x) return text + " is not a number";
        return *x > 0 ? "" : text + ": must be above 0";
      },
      "above 0");
}

CLI::Validator from_to(double lowest, double highest) {
  const std::string range = shown(lowest) + " to " + shown(highest);
  return CLI::Validator(
      [lowest, highest, range](std::string& text) -> std::string {
        const auto x = number(text);
        if (!x) return text + " is not a number";
        return *x >= lowest && *x <= highest ? "" : text + ": must be from " + range;
      },
      range);
}

}  // namespace wirebench::app
