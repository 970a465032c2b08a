#pragma once
// `wirebench run --scenario echo`: article 003's comparison, made here in one command. Its Echo
// API (echo.v1.Echo: Get, Expand, Collect, Update, with the article's messages) served by ours
// (the gRPC server, which answers gRPC, Connect and gRPC-Web on one port) and by the references
// (connect-go's and grpc-go's servers, tests/protocols/*_peer as scripts/setup builds them), each
// on an abstract Unix socket and on TCP loopback; called by our clients (grpc, connect, grpc-web)
// and by connect-go's own client in its three protocols; first by one caller, one call after
// another (the article's measure: the mean time per call), then by a closed loop of 64 callers.
// Repeats alternate the clients against each server. The cells land in run_record::echo (and
// our clients' points in run_record::points); print_echo_table prints them in the article's shape,
// with its published figures beside them.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "run_plan.hpp"

namespace wirebench::app {

struct echo_plan {
  std::vector<std::string> servers = {"ours", "connect-go", "grpc-go"};
  // Our protocols that call, and "connect-go" for its client in Connect, gRPC and gRPC-Web.
  std::vector<std::string> clients = {"grpc", "connect", "grpc-web", "connect-go"};
  std::vector<std::string> transports = {"abstract", "tcp"};
  std::uint64_t sequential_calls = 10000;  // the article's -n
  std::size_t closed_workers = 64;         // the closed loop's callers
  double closed_seconds = 2;
  double warmup_seconds = 0.5;
};

// The names --scenario echo knows, for its usage errors.
const std::vector<std::string>& echo_server_names();
bool echo_client_known(const std::string& name);  // one of ours that speaks gRPC's family, or connect-go

// Runs it; `base` gives the placement (CPUs, threads), repeats, timeouts and interruption.
run_record run_echo_scenario(const run_plan& base, const echo_plan& echo, sweep_status& status);

// The cells in the article's shape: a row per server x client x address, a column per method,
// one caller's mean per call, then the closed loop's; the ratios the article drew (abstract
// socket against TCP, Connect against gRPC) from this run beside the article's own.
void print_echo_table(std::ostream& out, const run_record& run);

}  // namespace wirebench::app
