// wirebench run: the load generator. Parses and validates the command line into a run_plan, runs
// the sweep, prints the table and writes the results files.
#include <algorithm>
#include <cmath>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

#include <unistd.h>

#include "commands.hpp"
#include "echo_scenario.hpp"
#include "number_checks.hpp"
#include "error_text.hpp"
#include "keepalive_flags.hpp"
#include "max_reply_flag.hpp"
#include "results_output.hpp"
#include "run_plan.hpp"
#include "resolve_flag.hpp"
#include "tls_flags.hpp"
#include "user_call_options.hpp"
#include "workload_options.hpp"
#include "wirebench/core/duration_text.hpp"
#include "wirebench/load/arrival_schedule.hpp"
#include "wirebench/load/results_file.hpp"
#include "wirebench/protocols/call_picks.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench::app {
namespace {

struct run_options {
  run_plan plan;
  bool find_max_rate = false;
  std::string slo;
  std::vector<std::string> protocols = {"all"};
  std::string connect;
  std::vector<std::string> resolve;  // --resolve HOST:PORT:ADDR
  std::string scenario;
  echo_plan echo;                    // --scenario echo
  std::vector<std::string> servers;  // --servers: its servers
  bool quick = false;
  bool quiet = false;
  std::string out_json;
  std::string out_csv;
  std::string check;  // --check: the target every point must meet (the --slo grammar)
  std::optional<slo_target> check_target;
  user_call_options user;
  workload_options workload;
  keepalive_flags keepalive;
  std::string interval = "100ms";  // --interval, the timeline's
  std::string stages;              // --stages RATE@DURATION,...
};

// The signal that interrupted the run (SIGINT, SIGTERM), or 0. The first one ends the sweep with
// the points it finished, written and printed (execute() watches this); the handler then puts
// both signals back to their default, so that a second one ends the program at once.
std::atomic<int> interrupted_by{0};

extern "C" void note_interruption(int signal) {
  interrupted_by.store(signal);  // lock-free: safe in a signal handler
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

void watch_for_interruption() {
  struct sigaction action {};
  action.sa_handler = note_interruption;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

// The points that miss --check's target, one line each ("line closed workers=8: p99 2.4ms > 2ms").
std::vector<std::string> check_points(const slo_target& target, const run_record& record) {
  std::vector<std::string> missed;
  for (const auto& point : record.points)
    if (auto why = target.violation(point.repeats))
      missed.push_back(describe_point(point.parameters) + ": " + *why);
  return missed;
}

// The points in which no call succeeded, each named with what its calls ended with: such a run
// measured nothing, and says so by its exit status (3, as a missed --check) whatever the table
// shows.
std::vector<std::string> points_without_success(const run_record& record) {
  std::vector<std::string> failed;
  for (const auto& point : record.points) {
    if (point.repeats.empty()) continue;  // interrupted before it ran: said otherwise
    outcome_counts all;
    for (const auto& r : point.repeats) all.merge(r.load.outcomes);
    if (all.count(outcome::ok) > 0) continue;
    std::string why;
    for (const auto& [name, n] : all.errors()) why += (why.empty() ? "" : " ") + name + "=" + std::to_string(n);
    failed.push_back(describe_point(point.parameters) + ": " + (why.empty() ? "no call was made" : why));
  }
  return failed;
}

// What every run checks last: the CPUs it pins to are there, and its results files can be
// written (nothing is created before there are results).
std::string finish_placement_and_outputs(run_options& o) {
  run_plan& plan = o.plan;
  for (const auto* cpus : {&plan.server_cpus, &plan.client_cpus}) {
    if (cpus->empty()) continue;
    const std::string option = cpus == &plan.server_cpus ? "--server-cpus " : "--client-cpus ";
    std::vector<int> list;
    try {
      list = parse_cpu_list(*cpus);
    } catch (const std::exception& e) {
      return option + error_text(e);
    }
    // Pinning to a CPU that is not there fails quietly, and the result would claim a placement
    // that never happened.
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    for (const int cpu : list)
      if (cpu < 0 || cpu >= online)
        return option + *cpus + ": this machine has CPUs 0 to " + std::to_string(online - 1);
  }
  plan.progress = !o.quiet;
  return prepare_results_outputs(o.out_json, o.out_csv);
}

// --scenario echo's plan (echo_scenario.hpp): its own servers, clients and loads; the flags
// that place and repeat it apply, those that choose another load or server are refused.
std::string finish_echo_plan(run_options& o, const CLI::App& cmd) {
  run_plan& plan = o.plan;
  echo_plan& echo = o.echo;
  auto given = [&](const char* name) { return cmd.get_option(name)->count() > 0; };
  for (const char* flag : {"--load", "--rate", "--stages", "--find-max-rate", "--slo", "--max-rate", "--connect",
                           "--depth", "--payload", "--server-engine", "--check", "--tls"})
    if (given(flag)) return std::string("--scenario echo runs its own loads and servers: drop ") + flag;
  if (workload_given(cmd) || !o.user.given(cmd).values.empty())
    return "--scenario echo calls the article's Echo methods: drop the user call";
  if (given("--protocol")) {
    echo.clients.clear();
    for (const auto& name : o.protocols) {
      if (!echo_client_known(name))
        return "--scenario echo: '" + name + "' is no client of the Echo service (grpc, connect, connect-h1, "
               "grpc-web, grpc-web-h1, grpcpp, or connect-go for connect-go's own)";
      echo.clients.push_back(name);
    }
  }
  if (!o.servers.empty()) {
    for (const auto& name : o.servers)
      if (std::find(echo_server_names().begin(), echo_server_names().end(), name) == echo_server_names().end())
        return "--servers: unknown '" + name + "' (ours, connect-go, grpc-go)";
    echo.servers = o.servers;
  }
  if (given("--transport")) {
    if (plan.transport == "unix") return "--scenario echo: --transport abstract or tcp (the article's two)";
    echo.transports = {plan.transport};
  }
  if (given("--workers")) {
    if (plan.workers.size() != 1) return "--scenario echo: --workers is the closed loop's one count";
    echo.closed_workers = plan.workers.front();
    if (echo.closed_workers < 2)
      return "--scenario echo: --workers is the closed loop's callers, 2 or more (one caller is always measured)";
  }
  if (o.quick) {
    echo.sequential_calls = 1000;
    echo.closed_seconds = 0.5;
    echo.warmup_seconds = 0.2;
  }
  if (given("--calls")) echo.sequential_calls = plan.calls;
  if (given("--duration")) echo.closed_seconds = plan.duration_seconds;
  if (given("--warmup")) echo.warmup_seconds = plan.warmup_seconds;
  if (!given("--repeats")) plan.repeats = o.quick ? 1 : 3;
  return finish_placement_and_outputs(o);
}

// Checks what CLI11 cannot and completes the plan; returns a message on a usage error.
std::string finish_plan(run_options& o, const CLI::App& cmd) {
  run_plan& plan = o.plan;
  auto given = [&](const char* name) { return cmd.get_option(name)->count() > 0; };
  if (!o.servers.empty() && o.scenario != "echo") return "--servers belongs to --scenario echo";
  if (o.scenario == "echo") return finish_echo_plan(o, cmd);
  if (!o.scenario.empty()) {
    if (o.scenario != "comparison") return "--scenario: unknown '" + o.scenario + "' (known: comparison, echo)";
    // The comparison this project reproduces: 100 calls/s for 60 s per protocol, each call at a
    // random whole second (bursty) and evenly spaced (uniform). Up to 128 calls in flight: a
    // second's burst (~100) fits, and FIFO protocols open no more than 128 connections. A short
    // warm-up keeps connection set-up out of the quantiles.
    if (!given("--load")) plan.loads = {"bursty", "uniform"};
    if (!given("--rate")) plan.rate = 100;
    if (!given("--duration")) plan.duration_seconds = o.quick ? 5 : 60;
    if (!given("--warmup")) plan.warmup_seconds = o.quick ? 0.2 : 1;
    if (!given("--workers")) plan.workers = {128};
    if (!given("--repeats")) plan.repeats = 1;
  } else if (o.quick) {
    if (!given("--duration")) plan.duration_seconds = 0.5;
    if (!given("--warmup")) plan.warmup_seconds = 0.1;
    if (!given("--repeats")) plan.repeats = 1;
  }
  if (given("--rate") && !given("--load") && o.scenario.empty()) plan.loads = {"uniform"};
  // A flag that would do nothing in the load asked for is refused, not ignored.
  if (given("--rate") && plan.loads == std::vector<std::string>{"closed"} && !o.find_max_rate)
    return "--rate paces an open loop; --load closed calls as fast as its --workers can (give one "
           "of them, or --load closed,uniform for both)";
  if (given("--stages")) {
    // The ramp says the rate and the time, and starts at 0 calls/s: its own warm-up.
    for (const char* flag : {"--rate", "--duration", "--warmup", "--calls", "--scenario", "--find-max-rate"})
      if (given(flag)) return std::string("--stages sets the rate over time; ") + flag + " goes without it";
    std::string problem;
    auto stages = rate_profile::parse(o.stages, problem);
    if (!stages) return "--stages " + o.stages + ": " + problem;
    if (!given("--load")) plan.loads = {"uniform"};
    plan.duration_seconds = std::chrono::duration<double>(stages->duration()).count();
    plan.warmup_seconds = 0;
    if (plan.loads == std::vector<std::string>{"closed"}) {
      // WORKERS@DURATION: the closed loop's workers over time (k6's ramping-vus).
      if (given("--workers")) return "--stages with --load closed sets the workers over time; drop --workers";
      for (const rate_stage& s : stages->stages())
        if (s.target != std::floor(s.target))
          return "--stages " + o.stages + ": with --load closed each stage is a whole number of workers";
      if (stages->peak() < 1) return "--stages " + o.stages + ": no stage has a worker";
      if (stages->peak() > most_workers)
        return "--stages " + o.stages + ": at most " + std::to_string(most_workers) + " workers";
      plan.workers = {std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(stages->peak())))};
      plan.worker_stages = std::move(stages);
    } else {
      for (const auto& load : plan.loads)
        if (load != "uniform" && load != "poisson")
          return "--stages ramps an open loop's rate (--load uniform or poisson) or, alone, a "
                 "closed loop's workers (--load closed), not " + load;
      if (!(stages->total_calls() >= 1)) return "--stages " + o.stages + ": the stages hold no call";
      if (stages->peak() > highest_rate)
        return "--stages " + o.stages + ": at most " + std::to_string(static_cast<std::uint64_t>(highest_rate)) + " calls/s";
      plan.rate = stages->peak();
      plan.stages = std::move(stages);
    }
  }
  if (plan.calls > 0) {
    if (!o.scenario.empty()) return "-n: --scenario comparison times its points; drop one";
    if (o.find_max_rate) return "-n: --find-max-rate times each step; drop one";
    // A cap, so that a run of calls ends even against a server that slows to a crawl (k6's
    // maxDuration of an iterations scenario is 10 minutes too).
    if (!given("--duration")) plan.duration_seconds = 600;
  }
  if (o.find_max_rate) {
    if (!o.scenario.empty()) return "--find-max-rate searches on its own: drop --scenario";
    if (o.slo.empty()) return "--find-max-rate needs the target to meet: --slo 'p99<=1ms'";
    try {
      plan.slo = slo_target::parse(o.slo);
    } catch (const std::exception& e) {
      return error_text(e);
    }
    if (!given("--load")) plan.loads = {"uniform"};
    if (!given("--rate")) plan.rate = 1000;  // the first step
    for (const auto& load : plan.loads)
      if (load == "closed") return "--find-max-rate searches an open loop's rate: --load closed has none";
    if (plan.rate < 1) return "--find-max-rate starts at --rate calls/s: give 1 or more";
    if (plan.max_rate < plan.rate) return "--max-rate is below the first step's --rate";
  } else if (!o.slo.empty() || given("--max-rate")) {
    return "--slo and --max-rate belong to --find-max-rate";
  }
  if (!o.check.empty()) {
    try {
      o.check_target = slo_target::parse(o.check, slo_target::use::check);
    } catch (const std::exception& e) {
      return std::string("--check: ") + error_text(e);
    }
  }
  // An open loop's workers bound the calls in flight: one would make every call wait for the
  // last, so without --workers an open-loop run gets room for 64.
  const bool open_loop = std::any_of(plan.loads.begin(), plan.loads.end(),
                                     [](const std::string& l) { return l != "closed"; });
  if (open_loop && !given("--workers") && o.scenario.empty()) plan.workers = {64};

  const auto& registry = protocol_registry::builtin();
  plan.protocols.clear();
  for (const auto& name : o.protocols) {
    if (name == "all") {
      for (const auto& p : registry.all()) plan.protocols.push_back(p.name);
      continue;
    }
    if (!registry.find(name)) return "unknown protocol '" + name + "' (see `wirebench list`)";
    plan.protocols.push_back(name);
  }
  if (!plan.server_engine.empty())
    for (const auto& name : plan.protocols)
      if (auto problem = check_engine(*registry.find(name), plan.server_engine); !problem.empty())
        return "--server-engine " + problem;
  for (const auto& load : plan.loads) {
    if (load == "closed") continue;
    if (!parse_arrival_kind(load))
      return "--load: unknown '" + load + "' (use closed, uniform, poisson or bursty)";
    if (!(plan.rate > 0)) return "--load " + load + " is an open loop: give its rate with --rate";
  }
  for (const auto w : plan.workers)
    if (w == 0) return "--workers: each count must be at least 1";
  user_call_choice user;
  try {
    if (workload_given(cmd)) {
      // A mix is read in the words of the protocols it goes to.
      std::vector<const user_call_form*> forms;
      for (const auto& name : plan.protocols) forms.push_back(registry.find(name)->can.user_calls);
      user = read_workload(o.workload, o.user, cmd, forms);
    } else {
      user = read_user_call(o.user, cmd);
    }
  } catch (const std::exception& e) {
    return error_text(e);
  }
  if (auto problem = settle_tls_client_flags(plan.tls); !problem.empty()) return problem;
  for (const auto& name : plan.protocols)
    if (plan.tls.enabled && !registry.find(name)->can.tls)
      return "--tls: protocol '" + name + "' does not speak TLS here";
  if (auto problem = settle_keepalive_flags(o.keepalive, plan.keepalive); !problem.empty())
    return problem;
  // At least 1 ms: a shorter one is noise, and a long run's timeline would grow without need.
  const auto interval = parse_duration(o.interval);
  if (!interval || *interval < std::chrono::milliseconds(1))
    return "--interval " + o.interval + ": a duration of 1ms or more, such as 100ms or 1s";
  plan.interval = *interval;
  for (const auto& name : plan.protocols)
    if (plan.keepalive.enabled() && !registry.find(name)->can.keepalive)
      return "--keepalive: protocol '" + name + "' has no ping for keep-alive";
  for (const auto& name : plan.protocols) {
    const protocol& p = *registry.find(name);
    const std::vector<user_call>& calls = user.calls_for(p.can.user_calls);
    if (calls.empty()) continue;
    const user_call& first = calls.front();
    if (user.server && user.server->tls) plan.tls.enabled = true;  // an https:// URL
    if (auto problem = user_call_mismatch(p.name, p.can.user_calls, first.form()); !problem.empty())
      return problem;
    plan.requests[name] = calls;
    // The codec factory checks the calls against their protocol (headers HTTP/2 forbids), and
    // a gRPC client its .proto and JSON, without connecting anywhere (gRPC dials at the first
    // call): a bad call is a usage error now, not a failed point later.
    // The probe also reads the picks' lists and files (the registry expands them); a gRPC call by
    // reflection is not probed, so its picks are read here.
    try {
      if (first.form()->defined_by_server && first.form()->defined_by_server(first.request)) {
        (void)expand_picks(calls);
        continue;  // asks the server: later
      }
    } catch (const std::exception& e) {
      return error_text(e);
    }
    client_config probe;
    probe.calls = calls;
    try {
      if (p.client_codecs)
        p.client_codecs(probe);
      else
        p.make_client(probe)->close();
    } catch (const std::exception& e) {
      return error_text(e);
    }
  }
  if (o.connect.empty() && user.server) {
    // The URL names the server: it is loaded as --connect would (the run starts none).
    std::string problem;
    const auto where = resolve_url(o.resolve, *user.server, problem);
    if (!where) return problem;
    if (plan.protocols.size() != 1)
      return "--url names one server: run one protocol against it with --protocol";
    plan.connect = where;
  }
  if (!o.connect.empty()) {
    std::string why;
    auto where = endpoint::parse(o.connect, &why);
    if (!where) return "--connect " + why;
    if (plan.protocols.size() != 1)
      return "--connect runs one protocol against a server you started: name it with --protocol";
    if (!plan.server_engine.empty())
      return "--server-engine picks the server this run starts; with --connect, start yours with "
             "`wirebench serve --engine`";
    plan.connect = *where;
  }
  if (!o.resolve.empty() && (!user.server || !o.connect.empty())) return resolve_needs_url;
  return finish_placement_and_outputs(o);
}

}  // namespace

command_runner add_run_command(CLI::App& app, int argc, char** argv) {
  auto [cmd, o] = add_command<run_options>(
      app, "run",
      "Load-test protocols with one generator: closed loop (workers) or open loop (a rate), "
      "a table on stdout, results as JSON and CSV.\n"
      "Each protocol's server is started on loopback by the run (or give --connect).",
      {"wirebench run --protocol http1,http2 --workers 1,4,16,64 --out results.json",
       "wirebench run --protocol line --rate 50000 --load poisson --duration 5",
       "wirebench run --scenario comparison --quick",
       "wirebench run -p http1 --url http://127.0.0.1:8080/index.html --workers 1,16",
       "wirebench run -p resp --connect tcp://127.0.0.1:6379 --command 'SET k:__rand_int__ v'"});
  for (int i = 0; i < argc; ++i) o->plan.command_line += (i ? " " : "") + std::string(argv[i]);
  run_plan& plan = o->plan;
  cmd->add_option("-p,--protocol", o->protocols, "Protocols, comma-separated, or all")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("-w,--workers", plan.workers,
                  "Worker counts to sweep (closed loop: callers; open loop: most calls in flight, "
                  "default 64)")
      ->delimiter(',')
      ->check(from_to(1, most_workers))
      ->capture_default_str();
  cmd->add_option("--load", plan.loads,
                  "Load models: closed, or an open loop's arrivals: uniform, poisson, bursty")
      ->delimiter(',')
      ->capture_default_str();
  cmd->add_option("-r,--rate", plan.rate, "Open loop: calls per second (implies --load uniform)")
      ->check(above_zero() & from_to(0, highest_rate));
  cmd->add_option("-D,--duration", plan.duration_seconds, "Seconds measured per repeat")
      ->check(from_to(0.01, 86400.0))
      ->capture_default_str();
  cmd->add_option("-n,--calls", plan.calls,
                  "Calls measured per repeat instead of a duration, as h2load's -n (closed loop: "
                  "shared by the workers; open loop: arrivals at --rate); --duration then caps "
                  "each repeat (default 600)")
      ->check(from_to(1, 1000000000000));
  cmd->add_option("--warmup", plan.warmup_seconds, "Seconds of unrecorded calls before each repeat")
      ->check(from_to(0.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--depth", plan.depth,
                  "Calls in flight per connection (pipelining, or streams/ids); connections = "
                  "workers / depth. 0: one connection for multiplexed protocols, else one per worker")
      ->capture_default_str();
  cmd->add_option("--payload", plan.payload_bytes, "Bytes in each call's name")
      ->check(from_to(1, 60000))
      ->capture_default_str();
  cmd->add_option("--transport", plan.transport, "tcp, unix or abstract (Linux abstract Unix)")
      ->check(CLI::IsMember({"tcp", "unix", "abstract"}))
      ->capture_default_str();
  cmd->add_option("--server-threads", plan.server_threads, "Server event-loop threads")
      ->check(from_to(1, 1024))
      ->capture_default_str();
  cmd->add_option("--server-engine", plan.server_engine,
                  "Server implementation, for protocols with several (grpcpp: cq, callback)");
  cmd->add_option("--client-threads", plan.client_threads, "Client event-loop threads")
      ->check(from_to(1, 1024))
      ->capture_default_str();
  cmd->add_option("--server-cpus", plan.server_cpus, "Pin the server to these CPUs, e.g. 0 or 0-1");
  cmd->add_option("--client-cpus", plan.client_cpus, "Pin the generator to these CPUs, e.g. 1");
  cmd->add_option("-R,--repeats", plan.repeats, "Runs per point (median and spread reported)")
      ->check(from_to(1, 1000))
      ->capture_default_str();
  add_tls_client_flags(*cmd, plan.tls);
  add_resolve_flag(*cmd, o->resolve);
  add_keepalive_client_flags(*cmd, o->keepalive);
  cmd->add_option("-c,--connect", o->connect,
                  "Load a server already running there (wirebench serve) instead of starting one");
  cmd->add_option("--interval", o->interval,
                  "The timeline's interval (50ms, 1s): every result has calls, failures, re-dials "
                  "and latency per interval, warm-up included")
      ->capture_default_str();
  cmd->add_option("--late-after", plan.late_after_ms,
                  "Open loop: a call sent this many ms after its intended start counts as late")
      ->check(above_zero())
      ->capture_default_str();
  add_max_reply_flag(*cmd, plan.max_reply_bytes);
  cmd->add_option("--timeout", plan.reply_timeout_seconds, "Seconds a call may wait for its reply")
      ->check(above_zero())
      ->capture_default_str();
  cmd->add_option("--seed", plan.seed, "Seed of the poisson and bursty schedules")
      ->capture_default_str();
  cmd->add_option("--scenario", o->scenario,
                  "comparison: 100 calls/s for 60 s per protocol, bursty and uniform, "
                  "min/p50/p90/max (other options still apply). echo: article 003's table, the "
                  "Echo API (Get, Expand, Collect, Update) served by ours, connect-go and grpc-go "
                  "on an abstract socket and TCP, called by our grpc, connect and grpc-web clients "
                  "and connect-go's, one caller (-n calls, default 10000) then a closed loop "
                  "(--workers, default 64, for --duration)");
  cmd->add_option("--servers", o->servers,
                  "--scenario echo: its servers (ours, connect-go, grpc-go; default all three)")
      ->delimiter(',');
  cmd->add_flag("--quick", o->quick, "Short runs (comparison: 5 s; otherwise 0.5 s, 1 repeat)");
  cmd->add_flag("--find-max-rate", o->find_max_rate,
                "Search each protocol's highest open-loop rate that meets --slo: a ramp from "
                "--rate (default 1000/s) doubling, then bisection to 5%; each step --repeats runs");
  cmd->add_option("--slo", o->slo,
                  "The target of --find-max-rate: quantiles and an error share, e.g. "
                  "'p99<=1ms', 'p50<=200us,p99.9<=5ms,errors<=0.1%' (errors<=1% unless given)");
  cmd->add_option("--max-rate", plan.max_rate, "--find-max-rate: the highest rate tried (calls/s)")
      ->check(above_zero() & from_to(0, highest_rate))
      ->capture_default_str();
  cmd->add_option("--check", o->check,
                  "Exit 3 when a point misses this target (as --slo: quantiles and an error "
                  "share; and a floor on calls/s), e.g. 'p99<=2ms,errors<=1%,rps>=5000': a "
                  "verdict for CI, naming each point missed");
  cmd->add_option("--stages", o->stages,
                  "An open loop whose rate ramps, as k6's ramping-arrival-rate: RATE@DURATION,... "
                  "from 0 calls/s, each stage linear to its rate (\"20000@20s,20000@60s\"); the "
                  "window is their whole time, late calls counted against the ramp. With --load "
                  "closed: WORKERS@DURATION,..., the workers calling (k6's ramping-vus)");
  cmd->add_option("-o,--out", o->out_json, "Write the results as JSON here (and CSV beside it); - : to stdout, the table then to stderr");
  cmd->add_option("--csv", o->out_csv, "Write the CSV here instead (- : to stdout)");
  cmd->add_flag("-q,--quiet", o->quiet, "No progress line");
  add_user_call_options(*cmd, o->user);
  add_workload_options(*cmd, o->workload);

  return [o = o, cmd = cmd]() -> int {
    if (const auto problem = finish_plan(*o, *cmd); !problem.empty()) return usage_error(problem);
    o->plan.interrupted = &interrupted_by;
    watch_for_interruption();
    sweep_status sweep;
    const bool echo = o->scenario == "echo";
    const run_record record = echo ? run_echo_scenario(o->plan, o->echo, sweep) : execute(o->plan, sweep);
    std::ostream& table = table_stream(o->out_json, o->out_csv);
    if (echo)
      print_echo_table(table, record);
    else
      print_table(table, record);
    // Flushed before anything goes to stderr: with both in one file, the results line would
    // otherwise land inside the table.
    table.flush();
    int status = write_results(record, o->out_json, o->out_csv) ? 0 : 1;
    if (!sweep.failures.empty()) status = 1;
    for (const auto& f : sweep.failures) std::cerr << "wirebench: " << f << "\n";
    for (const auto& failed : points_without_success(record)) {
      std::cerr << "wirebench: no call succeeded: " << failed << "\n";
      if (status == 0) status = 3;
    }
    if (o->check_target) {
      const auto missed = check_points(*o->check_target, record);
      for (const auto& m : missed) std::cerr << "wirebench: --check missed: " << m << "\n";
      if (!missed.empty() && status == 0) status = 3;
    }
    if (sweep.interrupted_by != 0) {
      std::cerr << "wirebench: " << record.incomplete << ": the points finished are above\n";
      status = 128 + sweep.interrupted_by;  // as a shell reports a program ended by the signal
    }
    if (sweep.stuck) {
      // A client's threads may still run: destroying anything now could crash or hang.
      std::cerr.flush();
      std::_Exit(status == 0 ? 1 : status);
    }
    return status;
  };
}

}  // namespace wirebench::app
