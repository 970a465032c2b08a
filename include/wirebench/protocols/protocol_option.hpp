#pragma once
// A setting one protocol's server owns (HTTP/2's windows and stream limit): declared in its
// registry entry (protocol_capabilities::server_options), given with its flag to `serve` (server_args.hpp),
// carried in server_config::options as text, and read back by the protocol's own make_server. So
// the central config names no protocol's settings, and a protocol adds one in its own folder.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace wirebench {

// Option values by flag ("--max-streams" -> "256"); an absent option has its default.
using protocol_option_values = std::map<std::string, std::string, std::less<>>;

struct protocol_option {
  std::string flag;           // "--max-streams"
  std::string value_name;     // "N"
  std::string help;           // one line; says its default
  // Throws std::invalid_argument with the reason a value is refused (without the flag's name).
  std::function<void(std::string_view value)> check;
};

// A whole number from `lo` to `hi`, e.g. a window size.
protocol_option count_option(std::string flag, std::uint64_t lo, std::uint64_t hi, std::string help);

// The value of count option `flag` in `values`, or `fallback` when it is absent. Throws
// std::invalid_argument naming the flag for a value that is not a whole number from lo to hi.
std::uint64_t count_option_value(const protocol_option_values& values, std::string_view flag,
                                 std::uint64_t fallback, std::uint64_t lo, std::uint64_t hi);

// A whole number from `lo` to `hi` ("expected a whole number from lo to hi" otherwise).
std::uint64_t parse_count(std::string_view text, std::uint64_t lo, std::uint64_t hi);

}  // namespace wirebench
