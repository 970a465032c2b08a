// greet/<protocol>/<transport>/workers:N — every registered protocol, closed loop, one
// connection per worker, on loopback; the server in this process, or a child for gRPC
// (bench_server.hpp).
#include <unistd.h>

#include <benchmark/benchmark.h>

#include "macro/bench_server.hpp"
#include "macro/closed_loop.hpp"
#include "macro/placement.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench::bench {
namespace {

std::string bench_endpoint(const std::string& transport) {
  static std::atomic<int> counter{0};
  if (transport == "tcp") return "tcp://127.0.0.1:0";
  return "unix:/tmp/wirebench-bench-" + std::to_string(::getpid()) + "-" +
         std::to_string(++counter) + ".sock";
}

void greet_case(benchmark::State& state, const protocol* p, const std::string& transport,
                std::size_t workers) {
  const placement where = placement::from_env();
  server_config sc;
  sc.listen = endpoint::parse_or_throw(bench_endpoint(transport));
  sc.threads = where.server_threads;
  sc.cpus = where.server_cpus;
  std::unique_ptr<bench_server> server;
  try {
    server = std::make_unique<bench_server>(*p, sc);
  } catch (const std::exception& e) {  // e.g. the redis-server reference is not installed
    state.SkipWithError(e.what());
    return;
  }

  client_config cc;
  cc.connect = server->local_endpoint();
  cc.connections = workers;
  cc.threads = where.client_threads;
  cc.cpus = where.client_cpus;
  auto client = p->make_client(cc);
  pin_current_thread(where.client_cpus);

  closed_loop loop(*client, workers);
  measure(state, loop, std::max<std::uint64_t>(100, workers * 20),
          std::max<std::uint64_t>(200, workers * 20), on_failure::fatal);
  client.reset();  // closes it, and lets a gRPC channel go before its server stops
  server->stop();
}

}  // namespace

void register_greet_benchmarks() {
  for (const auto& p : protocol_registry::builtin().all())
    for (std::string transport : {"tcp", "unix"})
      for (std::size_t workers : {1, 2, 4, 8, 16, 32, 64})
        benchmark::RegisterBenchmark(
            ("greet/" + p.name + "/" + transport + "/workers:" + std::to_string(workers)).c_str(),
            [proto = &p, transport, workers](benchmark::State& s) {
              greet_case(s, proto, transport, workers);
            })
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
}

}  // namespace wirebench::bench
