#pragma once
// The client's keep-alive flags, shared by `call` and `run`, as gRPC names its settings:
// --keepalive DURATION (GRPC_ARG_KEEPALIVE_TIME_MS), --keepalive-timeout DURATION, and
// --keepalive-without-calls (GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS).
#include <string>

#include <CLI/CLI.hpp>

#include "wirebench/transport/keepalive.hpp"

namespace wirebench::app {

/// The flags' text, until settled.
struct keepalive_flags {
  std::string interval;
  std::string timeout;
  bool without_calls = false;
};

void add_keepalive_client_flags(CLI::App& cmd, keepalive_flags& flags);

// After parsing: the settings the flags give ("" when set right); else the one-line problem (exit
// status 2). --keepalive-timeout and --keepalive-without-calls need --keepalive.
std::string settle_keepalive_flags(const keepalive_flags& flags, keepalive_settings& into);

}  // namespace wirebench::app
