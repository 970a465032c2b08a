#pragma once
// Durations as a person writes them: a whole number and a unit, ns, us, ms, s, m or h ("250us",
// "5ms", "30s", "2m"), or several of them, largest unit first, as Go and k6 write durations
// ("1m30s"). format_duration() writes the largest unit up to s that keeps the value exact, so
// that parse_duration(format_duration(d)) == d for every d >= 0.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// nullopt for anything else: no unit, another unit, units out of order or repeated, a sign, a
/// blank, a fraction, or a total too large for 64 bits of nanoseconds.
WIREBENCH_API std::optional<std::chrono::nanoseconds> parse_duration(std::string_view text);
/// Writes `d` in the largest unit that keeps it exact ("5ms"), text parse_duration() reads back.
WIREBENCH_API std::string format_duration(std::chrono::nanoseconds d);
/// A measured duration for people to read, not to parse back: three significant digits in the
/// unit that keeps it short ("1.42ms", "870us").
WIREBENCH_API std::string readable_duration(double ns);

}  // namespace wirebench
