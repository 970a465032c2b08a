// `wirebench list`: the registered protocols, one per line, or as JSON for scripts (scripts/soak
// reads which servers there are and the bytes of a greet call from it, rather than naming them).
#include <cstdio>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::app {
namespace {

std::string hex(const std::string& bytes) {
  std::string out;
  char pair[3];
  for (const unsigned char c : bytes) {
    std::snprintf(pair, sizeof pair, "%02x", c);
    out += pair;
  }
  return out;
}

// One protocol, as `list --json` prints it.
nlohmann::json describe(const protocol& p) {
  return {{"name", p.name},
          {"summary", p.summary},
          {"multiplexed", p.can.multiplexed},
          {"server_of", p.reference.server_of.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.reference.server_of)},
          {"server_program",
           p.reference.server_program.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.reference.server_program)},
          {"greet_request_hex", p.test.wire.request ? nlohmann::json(hex(p.test.wire.request("wirebench", 1)))
                                               : nlohmann::json(nullptr)}};
}

}  // namespace

command_runner add_list_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "Print the registered protocols");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json,
                "As a JSON array: name, summary, multiplexed, server_of (the protocol whose server "
                "it runs, or null), server_program (a server not ours, or null), "
                "greet_request_hex (a greet call's bytes for the name \"wirebench\", or null)");
  return [json] {
    const auto& all = protocol_registry::builtin().all();
    if (!*json) {
      for (const auto& p : all) std::cout << p.name << "\t" << p.summary << "\n";
      return 0;
    }
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : all) out.push_back(describe(p));
    std::cout << out.dump(1) << "\n";
    return 0;
  };
}

}  // namespace wirebench::app
