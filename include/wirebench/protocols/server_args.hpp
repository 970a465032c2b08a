#pragma once
// server_config as command-line flags: the ones `wirebench serve` takes. A program that starts a
// server in another process (load/server_process: `wirebench run`, the benchmarks) writes its
// config with to_args(); serve reads it with from_args(). So the child runs with every setting
// its starter had, and a field added to server_config is added here once, for all of them.
// tls.ca_file is a client setting and has no flag.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

struct server_flag {
  std::string name;        // "--threads"
  std::string short_name;  // "-t", or ""
  std::string value_name;  // "N", "ENDPOINT"...; "" for a switch, which takes no value
  std::string help;
  // Sets the field from the flag's value ("" for a switch). Throws std::invalid_argument with
  // the reason the value is refused.
  std::function<void(server_config&, std::string_view value)> read;
  // The field as the flag's value; nullopt when no flag is written (an empty field, a switch
  // that is off).
  std::function<std::optional<std::string>(const server_config&)> write;
};

// One per server_config field, in the order help lists them, then every registered protocol's
// own settings (protocol_capabilities::server_options).
const std::vector<server_flag>& server_flags();

// `c` as flags: every field, defaults included, so that what the child gets does not depend on
// its own defaults (serve listens on port 7000 unless told otherwise). from_args(to_args(c)) == c.
std::vector<std::string> to_args(const server_config& c);
// `base` with the given flags applied, each "--flag value" or, for a switch, "--flag". Throws
// std::invalid_argument naming the flag for an unknown flag, a missing value or a refused one.
server_config from_args(std::span<const std::string> args, server_config base = {});

}  // namespace wirebench
