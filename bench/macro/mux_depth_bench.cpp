// mux_depth/<fifo|mux>/<model>/depth:K — one connection, K calls in flight, against a server whose
// service time follows a model. `mux` answers in completion order and matches by id; `fifo` is
// the same server and client in ordered mode (replies in request order): the difference is what
// head-of-line blocking costs. Models: none, fixed (50 µs), exp (mean 50 µs), skewed (1 request
// in 1000 takes 5 ms: rare enough that p99 shows the requests stuck behind it, not the slow ones).
#include <benchmark/benchmark.h>

#include "macro/closed_loop.hpp"
#include "macro/placement.hpp"
#include "wirebench/client/client_engine.hpp"
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_session.hpp"

namespace wirebench::bench {
namespace {

// The client engine with the mux codec behind the protocol_client interface the closed loop
// drives.
class mux_adapter final : public protocol_client {
 public:
  explicit mux_adapter(client_engine_config c) : client_(std::move(c)) {}
  void async_greet(std::string_view name, call_options o, call_completion done) override {
    const auto deadline =
        o.has_deadline() ? o.deadline : std::chrono::steady_clock::now() + std::chrono::seconds(30);
    client_.async_call(name, deadline, std::move(done), o.lane);
  }
  void close() override { client_.close(); }
  client_engine_stats stats() const { return client_.stats(); }

 private:
  client_engine client_;
};

struct model {
  const char* name;
  const char* spec;
};
constexpr model models[] = {{"none", "none"},
                            {"fixed", "fixed:50us"},
                            {"exp", "exp:50us"},
                            {"skewed", "skewed:1000:5ms"}};

void mux_depth(benchmark::State& state, bool ordered, const model& m, std::size_t depth) {
  const placement where = placement::from_env();
  session_server_config sc;
  sc.transport.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  sc.transport.pool = {.threads = 1, .cpus = where.server_cpus, .name = "mux-srv"};
  sc.workers = 0;  // replies computed on the event-loop thread; the service time is a timer
  mux_session::settings ms;
  ms.dispatch.handler = [](std::string_view name, std::error_code&) {
    return expected_greeting(name);
  };
  ms.dispatch.ordered = ordered;
  ms.dispatch.service_time = service_time_model::parse(m.spec);
  mux_server server(sc, ms);

  client_engine_config cc;
  cc.connect = server.local_endpoint();
  cc.connections = 1;
  cc.threads = 1;
  cc.cpus = where.client_cpus;
  cc.max_in_flight = std::max<std::size_t>(depth, 1);
  cc.codec = [ordered] {
    return make_mux_client_codec(1 << 20, ordered ? reply_order::in_order : reply_order::by_id);
  };
  mux_adapter client(cc);
  pin_current_thread(where.client_cpus);

  closed_loop loop(client, depth);
  measure(state, loop, std::max<std::uint64_t>(100, depth * 4),
          std::max<std::uint64_t>(500, depth * 20), on_failure::fatal);
  state.counters["late"] = static_cast<double>(client.stats().late);
  client.close();
  server.stop();
}

}  // namespace

void register_mux_depth_benchmarks() {
  for (bool ordered : {true, false})
    for (const model& m : models)
      for (std::size_t depth : {1, 4, 16, 64, 256})
        benchmark::RegisterBenchmark((std::string("mux_depth/") + (ordered ? "fifo" : "mux") + "/" +
                                      m.name + "/depth:" + std::to_string(depth))
                                         .c_str(),
                                     [ordered, &m, depth](benchmark::State& s) {
                                       mux_depth(s, ordered, m, depth);
                                     })
            ->UseRealTime()
            ->Unit(benchmark::kMicrosecond);
}

}  // namespace wirebench::bench
