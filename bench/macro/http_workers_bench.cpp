// http_workers/<variant>/workers:N — the job-queue comparison: N workers in a closed loop against
// one server, N from 1 to 512.
//   http1      HTTP/1.1 keep-alive, one connection per worker (what HTTP/1.1 needs for N in flight)
//   http1-new  HTTP/1.1 with a new connection for every call (what persistence buys)
//   http2      HTTP/2, every worker a stream on one shared connection
//   http2-tls  the same over TLS (ALPN h2, self-signed certificate, no verification)
// grpc_workers/<variant>/workers:N — the same on one gRPC connection:
//   grpc           ours: unary calls on our HTTP/2 (a stream per call)
//   grpc-stream    ours: one bidi stream, one request per message, matched by id
//   grpc-batch     ours: one bidi stream, the calls of a loop turn up to 10 per message
//   grpcpp         grpc++'s unary calls on one channel (its server a child process)
//   grpcpp-stream  grpc++, one bidi stream, one request per message, matched by id
//   grpcpp-batch   grpc++, one bidi stream, up to 10 requests per message
// Failed calls do not end the case: they are counted by type (counters `errors` and, for running
// out of file descriptors, `emfile`), so "too many open files" shows up as a number.
#include <span>

#include <benchmark/benchmark.h>

#include "macro/bench_server.hpp"
#include "macro/closed_loop.hpp"
#include "macro/placement.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench::bench {
namespace {

struct variant {
  const char* name;
  const char* protocol;
  bool persistent;
  bool shared_connection;
  bool tls;
};
constexpr variant variants[] = {{"http1", "http1", true, false, false},
                                {"http1-new", "http1-close", false, false, false},
                                {"http2", "http2", true, true, false},
                                {"http2-tls", "http2", true, true, true}};
// Ours (gRPC on our HTTP/2) beside grpc++, the reference, on the same load.
constexpr variant grpc_variants[] = {{"grpc", "grpc", true, true, false},
                                     {"grpc-stream", "grpc-stream", true, true, false},
                                     {"grpc-batch", "grpc-batch", true, true, false},
                                     {"grpcpp", "grpcpp", true, true, false},
                                     {"grpcpp-stream", "grpcpp-stream", true, true, false},
                                     {"grpcpp-batch", "grpcpp-batch", true, true, false}};

void http_workers(benchmark::State& state, const variant& v, std::size_t workers) {
  const placement where = placement::from_env();
  const protocol& p = *protocol_registry::builtin().find(v.protocol);
  server_config sc;
  sc.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  sc.threads = where.server_threads;
  sc.cpus = where.server_cpus;
  if (p.can.fit_server_to_load) p.can.fit_server_to_load(sc, 1024);
  sc.tls.enabled = v.tls;
  bench_server server(p, sc);

  client_config cc;
  cc.connect = server.local_endpoint();
  cc.connections = v.shared_connection ? 1 : (v.persistent ? workers : 1);
  cc.threads = where.client_threads;
  cc.cpus = where.client_cpus;
  cc.tls.enabled = v.tls;
  cc.tls.insecure = true;  // our server's self-signed certificate
  auto client = p.make_client(cc);
  pin_current_thread(where.client_cpus);

  closed_loop loop(*client, workers);
  measure(state, loop, std::max<std::uint64_t>(100, workers * 2),
          std::max<std::uint64_t>(200, workers * 4), on_failure::counted);
  const auto outcomes = loop.results().outcomes;
  state.counters["errors"] = static_cast<double>(outcomes.failed());  // 0 included: a column
  const auto& failures = outcomes.errors();
  state.counters["emfile"] = static_cast<double>(
      failures.contains("too_many_files_open") ? failures.at("too_many_files_open") : 0);
  client.reset();  // closes it, and lets a gRPC channel go before its server stops
  server.stop();
}

}  // namespace

void register_http_workers_benchmarks() {
  auto add = [](const char* prefix, std::span<const variant> table,
                std::initializer_list<std::size_t> counts) {
    for (const variant& v : table)
      for (std::size_t workers : counts)
        benchmark::RegisterBenchmark(
            (std::string(prefix) + v.name + "/workers:" + std::to_string(workers)).c_str(),
            [&v, workers](benchmark::State& s) { http_workers(s, v, workers); })
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
  };
  add("http_workers/", variants, {1, 2, 4, 8, 16, 32, 64, 128, 256, 512});
  add("grpc_workers/", grpc_variants, {1, 4, 16, 64});
}

}  // namespace wirebench::bench
