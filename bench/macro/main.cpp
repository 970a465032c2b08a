// wirebench_macro: end-to-end benchmarks. Cases are registered from the protocol registry, so a
// new protocol joins the sweep by registering itself; the CPU placement goes into the context.
#include <iostream>

#include <benchmark/benchmark.h>

#include "macro/placement.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::bench {
void register_greet_benchmarks();
void register_raw_pingpong_benchmarks();
void register_mux_depth_benchmarks();
void register_http_workers_benchmarks();
}  // namespace wirebench::bench

int main(int argc, char** argv) {
  using namespace wirebench::bench;
  placement where;
  try {
    where = placement::from_env();
  } catch (const std::exception& e) {
    std::cerr << "wirebench_macro: " << e.what() << "\n";
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::AddCustomContext("server_cpus", placement::describe(where.server_cpus));
  benchmark::AddCustomContext("client_cpus", placement::describe(where.client_cpus));
  benchmark::AddCustomContext("server_threads", std::to_string(where.server_threads));
  benchmark::AddCustomContext("client_threads", std::to_string(where.client_threads));
  // Before any benchmark's threads: gRPC's client poller (reference_server::prepare_client_process).
  for (const auto& p : wirebench::protocol_registry::builtin().all())
    if (p.reference.prepare_client_process) p.reference.prepare_client_process();
  register_raw_pingpong_benchmarks();
  register_greet_benchmarks();
  register_mux_depth_benchmarks();
  register_http_workers_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
