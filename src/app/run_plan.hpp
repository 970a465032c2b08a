#pragma once
// What `wirebench run` was asked to do, once the command line is validated, and the sweep that
// does it: every protocol x load x workers point, each repeated, against a server this run
// starts (or the one --connect names).
#include <atomic>
#include <chrono>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "wirebench/load/results_file.hpp"
#include "wirebench/load/server_process.hpp"
#include "wirebench/load/slo.hpp"
#include "wirebench/protocols/user_call.hpp"
#include "wirebench/tls/tls_options.hpp"
#include "wirebench/transport/keepalive.hpp"
#include "wirebench/transport/endpoint.hpp"

namespace wirebench::app {

// The most workers and the highest open-loop rate a run takes: past what one machine drives (our
// generator tops out near half a million calls/s on a core), and bounded so that a slip of the
// finger (--workers 1e12, --rate 1e15) is refused before anything is sized by it.
inline constexpr std::size_t most_workers = 100'000;
inline constexpr double highest_rate = 1e7;

struct run_plan {
  std::vector<std::string> protocols;
  std::vector<std::string> loads = {"closed"};  // closed, uniform, poisson, bursty
  std::vector<std::size_t> workers = {1};
  double rate = 0;  // calls/s, for the open-loop loads (with `stages`, their peak)
  std::optional<rate_profile> stages;  // --stages: the open loops' rate over time
  std::optional<rate_profile> worker_stages;  // --load closed --stages: the workers over time
  double warmup_seconds = 0.5;
  double duration_seconds = 2;  // with `calls`, the cap of each repeat
  std::uint64_t calls = 0;  // -n: calls per repeat instead of a duration (load_spec::calls)
  std::size_t depth = 0;  // calls in flight per connection; 0: by the protocol (see below)
  std::size_t payload_bytes = 5;
  std::string transport = "tcp";  // tcp, unix, abstract
  std::size_t server_threads = 1;
  std::string server_engine;  // "" = each protocol's default (see protocol_capabilities::server_engines)
  std::size_t client_threads = 1;
  std::string server_cpus;  // "" = not pinned
  std::string client_cpus;
  std::size_t repeats = 3;
  std::optional<endpoint> connect;  // a server someone else runs
  // A server at `connect` that this program started (--scenario echo's): its CPU is sampled as a
  // started server's, its points are local, and `started_server_name` is its implementation
  // (the points' server_engine: "connect-go").
  const server_process* started_server = nullptr;
  std::string started_server_name;
  // Sent instead of the greet call (--url, --path, --command, --request, --workload), by
  // protocol name (a workload file's sections give each kind of protocol its own): several are
  // a mix, each call sending one by weight. A protocol not in it sends the greet call.
  std::map<std::string, std::vector<user_call>> requests;
  const std::vector<user_call>& requests_for(const std::string& protocol) const {
    static const std::vector<user_call> none;
    const auto it = requests.find(protocol);
    return it == requests.end() ? none : it->second;
  }
  // The client's TLS (--tls, --tls-ca, --insecure). A server the run starts then serves TLS with a
  // certificate made for the run, which the client verifies (ca_file is set to it).
  tls_options tls;
  // The client's keep-alive pings (--keepalive...); off by default.
  keepalive_settings keepalive;
  double late_after_ms = 1;
  std::chrono::nanoseconds interval = std::chrono::milliseconds(100);  // the timeline's
  double reply_timeout_seconds = 10;
  std::size_t max_reply_bytes = 4 * 1024 * 1024;  // --max-reply (max_reply_flag.hpp)
  std::uint64_t seed = 1;
  // --find-max-rate: each protocol, open load and worker count is a search for the highest rate
  // meeting `slo`, from `rate` (the first step) up to `max_rate`; steps are points of the run.
  std::optional<slo_target> slo;
  double max_rate = 1e7;
  bool progress = true;
  std::string command_line;
  // Set (to the signal's number) by a SIGINT or SIGTERM handler: the repeat under way is given up
  // and the sweep ends with the points it finished. Null: the run is never interrupted.
  const std::atomic<int>* interrupted = nullptr;
};

// Connections and per-connection depth for `workers` callers. depth 0 (the default): a
// multiplexed protocol puts every caller on one connection; a FIFO one gives each its own.
// Otherwise ceil(workers / depth) connections, each with up to `depth` calls in flight.
struct connection_layout {
  std::size_t connections = 1;
  std::size_t depth = 1;         // recorded in the results
  std::size_t client_depth = 0;  // what the client is configured with (0: its default)
};
connection_layout layout_for(bool multiplexed, std::size_t workers, std::size_t depth);

// How the sweep went, beside its points.
struct sweep_status {
  // Why points are missing or wrong, one line each: a server that could not start (its protocol
  // is skipped), a server nobody could connect to, a watchdog that fired.
  std::vector<std::string> failures;
  int interrupted_by = 0;  // the signal that ended the sweep early, or 0
  // A client could not even be closed: its threads may still run, so the program must end
  // without destroying anything (the client was let go of, never freed).
  bool stuck = false;
};

// Now, in UTC, as results files keep it (ISO 8601).
std::string utc_now();

// The CPUs the generator's threads can use, beside the machine's, to judge whether it saturated.
cpu_budget budget_for(const run_plan& plan, const machine_info& machine, bool open_loop);

// Runs the sweep. An interrupted or stuck sweep returns the points it finished, with
// run_record::incomplete saying why the rest is missing.
run_record execute(const run_plan& plan, sweep_status& status);

// The summary table a person reads: one row per point.
void print_table(std::ostream& out, const run_record& run);

}  // namespace wirebench::app
