// The sweep behind `wirebench run`: start each protocol's server (a child process), then for each
// load and worker count run the point R times with a fresh client, sampling both sides' CPU over
// each measured window. With --find-max-rate each load and worker count is instead a search
// (knee_search.hpp): a point per rate tried, judged against the target (slo.hpp).
#include <algorithm>
#include <cmath>
#include <csignal>
#include <ctime>
#include <memory>
#include <optional>
#include <stdexcept>
#include <unistd.h>

#include "error_text.hpp"
#include "progress_line.hpp"
#include "run_plan.hpp"
#include "serve_command_line.hpp"
#include "temporary_certificate.hpp"
#include "wirebench/load/knee_search.hpp"
#include "wirebench/load/load_driver.hpp"
#include "wirebench/load/server_process.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench::app {
namespace {

std::string listen_endpoint(const std::string& transport, const std::string& protocol) {
  static int counter = 0;
  const std::string name = "wirebench-run-" + std::to_string(::getpid()) + "-" + protocol + "-" +
                           std::to_string(++counter);
  if (transport == "unix") return "unix:/tmp/" + name + ".sock";
  if (transport == "abstract") return "unix:@" + name;
  return "tcp://127.0.0.1:0";
}

// A repeat in which the client never had a connection: the rest of the protocol's points are
// skipped, and the run fails.
struct no_connection : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A repeat given up because the run was interrupted: the sweep ends with the points finished.
struct interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A repeat whose client could not be closed (load_result::stuck): the sweep ends, and so must
// the program, without destroying anything the client's threads may still touch.
struct stuck : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::chrono::nanoseconds seconds(double s) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(s));
}

// One repeat of one point: a fresh client, the load, both sides' CPU over the measured window.
repeat_result run_repeat(const protocol& p, const run_plan& plan, const point_parameters& params,
                         const connection_layout& layout, const endpoint& where,
                         const server_process* server, const tls_options& tls, progress_line& progress) {
  client_config cc;
  cc.tls = tls;
  cc.connect = where;
  cc.connections = layout.connections;
  cc.depth = layout.client_depth;
  cc.threads = plan.client_threads;
  if (!plan.client_cpus.empty()) cc.cpus = parse_cpu_list(plan.client_cpus);
  cc.reply_timeout = seconds(plan.reply_timeout_seconds);
  cc.max_frame_bytes = plan.max_reply_bytes;
  cc.connect_timeout = seconds(std::min(plan.reply_timeout_seconds, 5.0));
  cc.calls = params.requests;
  cc.keepalive = plan.keepalive;
  // An open loop's calls fail at once while no connection can be had, so that a dead server
  // costs its schedule nothing; a closed loop's wait for the next dial (no worker spins).
  cc.wait_for_connection = params.load == "closed";
  cc.interrupted = plan.interrupted;
  auto client = p.make_client(cc);

  load_spec spec;
  spec.workers = params.workers;
  if (params.load != "closed") spec.arrivals = parse_arrival_kind(params.load);
  spec.rate = params.rate;
  if (params.load != "closed") spec.stages = plan.stages;
  if (params.load == "closed") spec.worker_stages = plan.worker_stages;
  spec.warmup = seconds(plan.warmup_seconds);
  spec.duration = seconds(plan.duration_seconds);
  spec.calls = plan.calls;
  spec.payload_bytes = plan.payload_bytes;
  if (params.requests.size() > 1)
    for (const user_call& call : params.requests) spec.request_weights.push_back(call.weight);
  spec.late_after = seconds(plan.late_after_ms / 1000.0);
  spec.interval = plan.interval;
  spec.seed = plan.seed;
  spec.call_timeout = cc.reply_timeout;
  // Every lane's dial failed and none ever succeeded: nobody listens there, and nothing this
  // repeat could measure would mean anything. Given up at once, not after the whole window.
  spec.give_up = [&client, &plan, lanes = cc.connections]() -> std::string {
    if (plan.interrupted && plan.interrupted->load() != 0) return "interrupted";
    const client_counters c = client->counters();
    if (c.connects == 0 && c.connect_failures >= lanes) return "no connection";
    return {};
  };
  if (progress.shows_live())
    spec.on_live = [&progress](std::function<live_counts()> read) { progress.watch(std::move(read)); };
  cpu_time client_start{};
  std::optional<cpu_time> server_start;
  repeat_result result;
  // The server's processes found before the load, so that each sample is read in microseconds.
  const std::vector<pid_t> server_tree = server ? process_tree(server->pid()) : std::vector<pid_t>{};
  spec.on_window = [&](bool opening) {
    const cpu_time client_now = process_cpu_time();
    const auto server_now = server ? processes_cpu_time(server_tree) : std::nullopt;
    if (opening) {
      client_start = client_now;
      server_start = server_now;
      return;
    }
    result.client_cpu = client_now - client_start;
    if (server_start && server_now) result.server_cpu = *server_now - *server_start;
  };
  result.load = run_load(*client, spec);
  if (result.load.stuck) {
    (void)client.release();  // its threads may still run: it is never destroyed
    throw stuck(result.load.watchdog);
  }
  // Interrupted: a repeat that measured calls keeps them (marked by its gave_up); one still
  // warming up has nothing to keep.
  if (result.load.gave_up == "interrupted" && result.load.outcomes.total() == 0) throw interrupted("interrupted");
  client->close();
  const client_counters c = client->counters();
  result.client = client_counts::of(c);
  // Not one connection made: the endpoint is wrong or down, and no figure here means anything.
  // (Clients that cannot count connections, gRPC's, tell it by their calls' outcomes.)
  const auto& outcomes = result.load.outcomes;
  const bool never_connected =
      c.connects == 0 &&
      (c.connect_failures > 0 ||
       (outcomes.count(outcome::ok) == 0 && outcomes.errors().count("connect_failed") > 0));
  if (never_connected) {
    const std::string why = c.last_connect_error ? c.last_connect_error.message()
                                                 : std::string("connect_failed");
    throw no_connection("no connection to " + where.to_string() + " could be made: " + why);
  }
  return result;
}

}  // namespace

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// The generator's threads: the client's event loops, plus, in an open loop, the thread that keeps
// the schedule (a closed loop's driving thread sleeps; its calls are issued from completions).
cpu_budget budget_for(const run_plan& plan, const machine_info& machine, bool open_loop) {
  const double available = machine.available_cpus ? machine.available_cpus : 1;
  double client = static_cast<double>(plan.client_threads) + (open_loop ? 1 : 0);
  if (!plan.client_cpus.empty())
    client = std::min(client, static_cast<double>(parse_cpu_list(plan.client_cpus).size()));
  return {std::min(client, available), available};
}

connection_layout layout_for(bool multiplexed, std::size_t workers, std::size_t depth) {
  if (depth == 0) {
    if (multiplexed) return {1, workers, 0};
    return {workers, 1, 1};
  }
  const std::size_t connections = (workers + depth - 1) / depth;
  return {connections, std::min(depth, workers), depth};
}

run_record execute(const run_plan& plan, sweep_status& status) {
  std::vector<std::string>& failures = status.failures;
  // Before any thread starts (and before the libraries are recorded: gRPC's poller is one).
  for (const std::string& name : plan.protocols)
    if (const protocol& p = *protocol_registry::builtin().find(name); p.reference.prepare_client_process)
      p.reference.prepare_client_process();
  run_record record;
  record.command_line = plan.command_line;
  record.started_at = utc_now();
  record.machine = describe_machine();
  record.libraries = library_versions();
  const std::size_t max_workers = *std::max_element(plan.workers.begin(), plan.workers.end());
  // A rate search runs about a dozen steps (its length is not known ahead: the ETA is a guess).
  const std::size_t points_per_protocol =
      plan.loads.size() * plan.workers.size() * (plan.slo ? 12 : 1);
  // A run of -n calls takes calls / rate (open loop) or an unknown time under its cap (closed).
  const double seconds_each =
      plan.calls == 0 || !(plan.rate > 0) ? plan.duration_seconds
                                          : std::min(plan.duration_seconds, plan.calls / plan.rate);
  progress_line progress(plan.protocols.size() * points_per_protocol * plan.repeats,
                         plan.warmup_seconds + seconds_each + 0.1, plan.calls, plan.progress);
  if (!plan.client_cpus.empty()) pin_current_thread(parse_cpu_list(plan.client_cpus));

  // TLS against servers the run starts: a certificate of its own, verified by its client.
  std::optional<temporary_certificate> certificate;
  tls_options tls = plan.tls;
  if (tls.enabled && !plan.connect) {
    certificate.emplace();
    if (!tls.insecure) tls.ca_file = certificate->certificate();
  }
  bool ended = false;  // interrupted or stuck: no more points, of any protocol
  auto interrupted_now = [&] { return plan.interrupted && plan.interrupted->load() != 0; };
  auto end_interrupted = [&](const std::string& when) {
    status.interrupted_by = plan.interrupted->load();
    record.incomplete = std::string("interrupted by ") +
                        (status.interrupted_by == SIGINT ? "SIGINT" : "SIGTERM") + " " + when;
    ended = true;
  };
  for (const std::string& name : plan.protocols) {
    if (ended) break;
    if (interrupted_now()) {
      end_interrupted("before " + name);
      break;
    }
    const protocol& p = *protocol_registry::builtin().find(name);
    std::unique_ptr<server_process> own_server;
    const server_process* server = plan.started_server;  // null: a remote one, not measured
    endpoint where;
    try {
      if (plan.connect) {
        where = *plan.connect;
      } else {
        server_config config;
        config.listen = endpoint::parse_or_throw(listen_endpoint(plan.transport, name));
        config.threads = plan.server_threads;
        config.engine = plan.server_engine;
        if (!plan.server_cpus.empty()) config.cpus = parse_cpu_list(plan.server_cpus);
        if (const protocol* p = protocol_registry::builtin().find(name); p->can.fit_server_to_load)
          p->can.fit_server_to_load(config, max_workers);
        if (certificate) {
          config.tls.enabled = true;
          config.tls.certificate_file = certificate->certificate();
          config.tls.private_key_file = certificate->key();
        }
        own_server = std::make_unique<server_process>(serve_command_line(name, config));
        server = own_server.get();
        where = server->local_endpoint();
      }
    } catch (const std::exception& e) {
      failures.push_back(error_text(e));
      progress.note(error_text(e) + "; skipping " + name);
      for (std::size_t i = 0; i < points_per_protocol * plan.repeats; ++i)
        progress.begin_step(name + " skipped");
      continue;
    }

    bool unreachable = false;
    // One point: its parameters, then --repeats runs of it with a fresh client each. Empty when
    // no repeat ran (the server is unreachable, or the client cannot be made).
    auto run_point = [&](const std::string& load, std::size_t workers,
                         double rate) -> std::optional<point_result> {
      if (unreachable || ended) return std::nullopt;
      point_result point;
      const connection_layout layout = layout_for(p.can.multiplexed, workers, plan.depth);
      point_parameters& params = point.parameters;
      params.protocol = name;
      params.load = load;
      params.workers = workers;
      params.depth = layout.depth;
      params.connections = layout.connections;
      params.rate = load == "closed" ? 0 : rate;
      if (plan.stages && load != "closed") params.stages = plan.stages->text();
      if (plan.worker_stages && load == "closed") params.stages = plan.worker_stages->text();
      params.warmup_seconds = plan.warmup_seconds;
      params.duration_seconds = plan.duration_seconds;
      params.calls = plan.calls;
      params.payload_bytes = plan.payload_bytes;
      params.late_after_ms = plan.late_after_ms;
      // TLS is part of the transport: a figure over TLS is never read as one in cleartext.
      params.transport = std::string(plan.connect && !server ? "remote" : plan.transport) +
                         (plan.tls.enabled ? "+tls" : "");
      params.endpoint = where.to_string();
      params.server_threads = plan.server_threads;
      if (own_server) params.server_engine = p.can.engine_for(plan.server_engine);  // --connect: unknown
      if (plan.started_server) params.server_engine = plan.started_server_name;
      params.client_threads = plan.client_threads;
      params.server_cpus = plan.server_cpus.empty() ? "any" : plan.server_cpus;
      params.client_cpus = plan.client_cpus.empty() ? "any" : plan.client_cpus;
      params.server_local = server != nullptr;
      params.requests = plan.requests_for(name);
      std::string label = name + " " + load;
      if (plan.slo) label += "@" + std::to_string(static_cast<long long>(rate)) + "/s";
      label += " workers=" + std::to_string(workers);
      for (std::size_t r = 1; r <= plan.repeats; ++r) {
        if (interrupted_now()) {
          end_interrupted("before " + label + " repeat " + std::to_string(r));
          break;
        }
        progress.begin_step(label + " repeat " + std::to_string(r) + "/" +
                            std::to_string(plan.repeats));
        try {
          point.repeats.push_back(run_repeat(p, plan, params, layout, where, server, tls, progress));
        } catch (const no_connection& e) {  // nothing more of this protocol can run
          failures.push_back(name + ": " + error_text(e));  // printed when the run ends
          unreachable = true;
          break;
        } catch (const interrupted&) {  // the repeat under way had measured nothing yet
          end_interrupted("during " + label + " repeat " + std::to_string(r));
          break;
        } catch (const stuck& e) {
          status.stuck = true;
          failures.push_back(name + ": the watchdog fired and the client could not be closed: " +
                             error_text(e));
          record.incomplete = "a client could not be closed during " + label;
          ended = true;
          break;
        } catch (const std::exception& e) {  // a client that cannot be made (bad config)
          if (interrupted_now()) {  // or whose start-up (reflection) the signal cut short
            end_interrupted("while " + label + " repeat " + std::to_string(r) + "'s client started");
            break;
          }
          failures.push_back(name + ": " + error_text(e));
          progress.note(name + ": " + error_text(e));
          break;
        }
        if (point.repeats.back().load.gave_up == "interrupted") {
          end_interrupted("during " + label + " repeat " + std::to_string(r) + " (the calls it finished are kept)");
          break;
        }
        if (const auto& why = point.repeats.back().load.watchdog; !why.empty())
          failures.push_back(label + " repeat " + std::to_string(r) +
                             ": the watchdog ended it with calls still in flight (" + why +
                             "): they are counted as unfinished");
      }
      if (point.repeats.empty()) return std::nullopt;
      point.summary = summarize(point.repeats, budget_for(plan, record.machine, load != "closed"));
      return point;
    };

    for (const std::string& load : plan.loads) {
      for (const std::size_t workers : plan.workers) {
        if (!plan.slo) {
          if (auto point = run_point(load, workers, plan.rate))
            record.points.push_back(std::move(*point));
          continue;
        }
        knee_result knee{name, load, workers, plan.slo->text, 0, 0, "", "", {}};
        knee_search search({.start_rate = plan.rate, .max_rate = plan.max_rate});
        while (const auto rate = search.next_rate()) {
          auto point = run_point(load, workers, *rate);
          if (!point) {
            knee.stopped_because = "a step could not run (the failures say why)";
            break;
          }
          const auto violation = plan.slo->violation(point->repeats);
          search.record(*rate, !violation);
          knee.steps.push_back({*rate, violation.value_or(""), record.points.size()});
          if (violation && *rate <= search.lowest_missed()) knee.missed_because = *violation;
          record.points.push_back(std::move(*point));
          if (ended) {
            knee.stopped_because = "the run ended early (" + record.incomplete + ")";
            break;
          }
        }
        if (knee.steps.empty()) continue;
        if (search.out_of_steps())
          knee.stopped_because = "out of steps (" + std::to_string(search.steps()) + ")";
        knee.max_rate_met = search.highest_met();
        if (!std::isinf(search.lowest_missed())) knee.lowest_missed = search.lowest_missed();
        record.knees.push_back(std::move(knee));
      }
    }
    if (own_server) own_server->stop();
  }
  return record;
}

}  // namespace wirebench::app
