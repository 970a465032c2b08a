#pragma once
// `wirebench serve`'s command line for a server that load/server_process.hpp starts: the flags are
// the CLI's, so they are spelled here, beside the serve command that reads them. Header-only: the
// benchmarks and tests that start a server process use it too.
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "wirebench/load/server_process.hpp"
#include "wirebench/protocols/protocol.hpp"
#include "wirebench/protocols/server_args.hpp"

namespace wirebench::app {

// This program's path (/proc/self/exe): `run` starts its server from its own executable.
inline std::string this_executable() {
  char path[4096];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw std::runtime_error("cannot find this program's path (/proc/self/exe)");
  return std::string(path, static_cast<std::size_t>(n));
}

// What starts `protocol`'s server with all of `config` (listen port 0: the kernel picks), run by
// `program` ("" = this program), as server_process wants it.
inline server_process_options serve_command_line(const std::string& protocol,
                                                 const server_config& config,
                                                 std::string program = {}) {
  server_process_options o;
  o.argv = {program.empty() ? this_executable() : std::move(program), "serve", "--protocol",
            protocol, "--ready-fd", std::to_string(server_process::ready_fd)};
  for (std::string& flag : to_args(config)) o.argv.push_back(std::move(flag));
  o.name = protocol;
  o.error_prefix = "wirebench: ";  // main.cpp's, before every message it prints
  o.grace = config.grace;
  return o;
}

}  // namespace wirebench::app
