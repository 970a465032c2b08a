#pragma once
// Durations as a person writes them: a whole number and a unit, ns, us, ms or s ("250us", "5ms",
// "30s"). format_duration() writes the largest unit that keeps the value exact, so that
// parse_duration(format_duration(d)) == d for every d >= 0.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// nullopt for anything else: no unit, another unit, a sign, a fraction, or too large for 64 bits.
WIREBENCH_API std::optional<std::chrono::nanoseconds> parse_duration(std::string_view text);
/// Writes `d` in the largest unit that keeps it exact ("5ms"), text parse_duration() reads back.
WIREBENCH_API std::string format_duration(std::chrono::nanoseconds d);

}  // namespace wirebench
