// `wirebench run --scenario echo` (echo_scenario.hpp): the servers started one at a time, each on
// each transport; against it, repeat by repeat, every client and method, ours as points of the
// sweep (execute(), against the started server) and connect-go's client as a child process that
// times itself.
#include "echo_scenario.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

#include <stdlib.h>
#include <unistd.h>

#include "echo_article.hpp"
#include "echo_v1_proto.hpp"
#include "error_text.hpp"
#include "serve_command_line.hpp"
#include "wirebench/core/child_process.hpp"
#include "wirebench/load/tools_cache.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/protocols/user_call_form.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench::app {
namespace {

// The article's messages, as echo-go's CLI sends them by default: Get "hello", Expand "1 2 3",
// Collect three texts and Update six ("hello 0", "hello 1", ...).
struct echo_method {
  std::string_view name;
  std::string_view text;
  int count;  // messages a client-streaming method sends
};
constexpr echo_method methods[] = {
    {"Get", "hello", 1}, {"Expand", "1 2 3", 1}, {"Collect", "hello", 3}, {"Update", "hello", 6}};

std::string request_json(const echo_method& m) {
  const auto text = [](std::string_view t) { return R"({"text": ")" + std::string(t) + "\"}"; };
  if (m.name == "Get" || m.name == "Expand") return text(m.text);
  std::string list = "[";
  for (int i = 0; i < m.count; ++i)
    list += (i ? ", " : "") + text(std::string(m.text) + " " + std::to_string(i));
  return list + "]";
}

// A folder of the run's own: the article's .proto, which our clients read, and what connect-go's
// client prints. Removed at the end.
class scratch_folder {
 public:
  scratch_folder() {
    char path[] = "/tmp/wirebench-echo-XXXXXX";
    if (::mkdtemp(path) == nullptr) throw std::runtime_error("cannot make a folder in /tmp for echo_v1.proto");
    dir_ = path;
    std::ofstream(proto()) << echo_v1_proto;
  }
  ~scratch_folder() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  std::string proto() const { return dir_ + "/echo_v1.proto"; }
  std::string output() const { return dir_ + "/client.out"; }

 private:
  std::string dir_;
};

// connect-go's client in each protocol: its -protocol, and its name in the table.
struct go_stack {
  std::string_view flag, client;
};
constexpr go_stack go_stacks[] = {
    {"connect", "connect-go/connect"}, {"grpc", "connect-go/grpc"}, {"grpcweb", "connect-go/grpc-web"}};

// Clients that speak gRPC itself (grpc-go's server speaks nothing else): ours on HTTP/2, grpc++'s,
// and connect-go's in its gRPC protocol. Connect and gRPC-Web, on either HTTP, are not gRPC.
bool speaks_grpc(std::string_view client) {
  return client == "grpc" || client == "grpcpp" || client == "connect-go/grpc";
}

std::string peer_program(const std::string& name) {
  if (name == "connect-go") return cached_tool("connectgo_peer", WIREBENCH_CONNECTGO_PEER_VERSION);
  return cached_tool("grpcgo_peer", WIREBENCH_GRPCGO_PEER_VERSION);
}

std::string not_built(const std::string& what, const std::string& folder) {
  return what + " is not built: scripts/setup builds tests/protocols/" + folder + " into " +
         tools_cache() + " where Go is present";
}

// A Go program placed as ours is: GOMAXPROCS as many as our side has threads, pinned where ours is.
std::vector<std::string> go_placement(std::size_t threads, const std::string& cpus) {
  std::vector<std::string> argv = {"env", "GOMAXPROCS=" + std::to_string(threads)};
  if (!cpus.empty()) argv.insert(argv.end(), {"taskset", "-c", cpus});
  return argv;
}

std::unique_ptr<server_process> start_server(const std::string& server, const std::string& transport,
                                             const run_plan& base) {
  const std::string socket = "@wirebench-echo-" + std::to_string(::getpid()) + "-" + server;
  if (server == "ours") {
    server_config config;
    config.listen = endpoint::parse_or_throw(transport == "abstract" ? "unix:" + socket : "tcp://127.0.0.1:0");
    config.threads = base.server_threads;
    if (!base.server_cpus.empty()) config.cpus = parse_cpu_list(base.server_cpus);
    return std::make_unique<server_process>(serve_command_line("grpc", config));
  }
  server_process_options o;
  o.argv = go_placement(base.server_threads, base.server_cpus);
  o.argv.push_back(peer_program(server));
  if (server == "connect-go") o.argv.push_back("serve");
  if (transport == "abstract") o.argv.insert(o.argv.end(), {"-socket", socket});
  else o.argv.insert(o.argv.end(), {"-port", "0"});
  o.argv.insert(o.argv.end(), {"-ready-fd", std::to_string(server_process::ready_fd)});
  o.name = server;
  o.grace = std::chrono::seconds(1);
  return std::make_unique<server_process>(o);
}

// One of our clients' user call: the method, from the article's .proto, with its message(s).
user_call echo_call(const protocol& client, const echo_method& m, const std::string& proto) {
  given_flags flags;
  flags.values["--call"] = {"echo.v1.Echo/" + std::string(m.name)};
  flags.values["--proto"] = {proto};
  flags.values["--data"] = {request_json(m)};
  user_call call;
  call.request = client.can.user_calls->from_flags(flags);
  return call;
}

// The sweep's settings for one point of ours against a started server.
run_plan point_plan(const run_plan& base, const echo_plan& echo, const std::string& client,
                    const server_process& server, const std::string& server_name,
                    const std::string& transport, user_call call, std::size_t workers) {
  run_plan p = base;
  p.protocols = {client};
  p.connect = server.local_endpoint();
  p.started_server = &server;
  p.started_server_name = server_name;
  p.transport = transport;
  p.requests = {{client, {std::move(call)}}};
  p.loads = {"closed"};
  p.workers = {workers};
  p.depth = 0;
  p.stages.reset();
  p.worker_stages.reset();
  p.slo.reset();
  p.repeats = 1;
  p.progress = false;
  p.warmup_seconds = echo.warmup_seconds;
  if (workers == 1) {
    p.calls = echo.sequential_calls;
    // A cap, so that the run ends against a server that crawls: 10 ms a call, at least a minute.
    p.duration_seconds = std::max(60.0, static_cast<double>(echo.sequential_calls) / 100);
  } else {
    p.calls = 0;
    p.duration_seconds = echo.closed_seconds;
  }
  return p;
}

// What connect-go's client printed: "timed: calls=N failed=F mean_ns=M".
bool read_timed(const std::string& path, std::uint64_t& calls, std::uint64_t& failed, double& mean_us) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    unsigned long long n = 0, f = 0, ns = 0;
    if (std::sscanf(line.c_str(), "timed: calls=%llu failed=%llu mean_ns=%llu", &n, &f, &ns) == 3) {
      calls = n;
      failed = f;
      mean_us = static_cast<double>(ns) / 1000;
      return true;
    }
  }
  return false;
}

class echo_run {
 public:
  echo_run(const run_plan& base, const echo_plan& echo, sweep_status& status)
      : base_(base), echo_(echo), status_(status), started_at_(utc_now()), machine_(describe_machine()),
        libraries_(library_versions()) {}

  run_record run() {
    // Each client's process-wide preparation is execute()'s, before each point's client.
    const std::size_t total = echo_.servers.size() * echo_.transports.size() * base_.repeats;
    std::size_t step = 0;
    for (const std::string& server : echo_.servers)
      for (const std::string& transport : echo_.transports) {
        if (ended()) break;
        progress("starting " + server + " on " + transport, step, total);
        serve(server, transport, step, total);
        step += base_.repeats;
      }
    run_record record;
    record.command_line = base_.command_line;
    record.started_at = started_at_;
    record.machine = machine_;
    record.libraries = libraries_;
    record.incomplete = incomplete_;
    for (echo_cell& cell : cells_) {
      auto it = points_.find(static_cast<std::size_t>(&cell - cells_.data()));
      if (it != points_.end()) {
        point_result& point = it->second;
        point.summary = summarize(point.repeats, budget_for(base_, machine_, false));
        cell.point = record.points.size();
        record.points.push_back(std::move(point));
      }
    }
    record.echo = std::move(cells_);
    return record;
  }

 private:
  bool ended() const { return !incomplete_.empty() || status_.stuck; }

  void progress(const std::string& what, std::size_t step, std::size_t total) const {
    if (base_.progress) std::fprintf(stderr, "echo [%zu/%zu] %s\n", step + 1, total, what.c_str());
  }

  std::size_t cell(const std::string& server, const std::string& client, const std::string& address,
                   std::string_view method, std::size_t workers) {
    const auto key = std::make_tuple(server, client, address, std::string(method), workers);
    if (auto it = index_.find(key); it != index_.end()) return it->second;
    cells_.push_back({server, client, address, std::string(method), workers, {}, {}, 0, 0, {}, {}});
    return index_[key] = cells_.size() - 1;
  }

  void skip_all(const std::string& server, const std::string& address, const std::string& why) {
    for (const std::string& client : clients())
      for (const auto& m : methods) cells_[cell(server, client, address, m.name, 1)].skipped = why;
  }

  // The clients' names as the table gives them: connect-go's three stacks apart.
  std::vector<std::string> clients() const {
    std::vector<std::string> names;
    for (const std::string& c : echo_.clients) {
      if (c != "connect-go") names.push_back(c);
      else
        for (const auto& s : go_stacks) names.emplace_back(s.client);
    }
    return names;
  }

  void serve(const std::string& server, const std::string& transport, std::size_t step, std::size_t total) {
    if (server != "ours" && peer_program(server).empty()) {
      const std::string why = not_built(server + "'s server", server == "connect-go" ? "connectgo_peer" : "grpcgo_peer");
      skip_all(server, transport, why);
      status_.failures.push_back("--scenario echo: " + why);
      return;
    }
    std::unique_ptr<server_process> process;
    try {
      process = start_server(server, transport, base_);
    } catch (const std::exception& e) {
      skip_all(server, transport, error_text(e));
      status_.failures.push_back("--scenario echo: " + server + ": " + error_text(e));
      return;
    }
    const std::string address = process->local_endpoint().to_string();
    for (std::size_t r = 1; r <= base_.repeats && !ended(); ++r) {
      progress(server + " at " + address + ", repeat " + std::to_string(r) + "/" + std::to_string(base_.repeats),
               step + r - 1, total);
      for (const std::string& client : clients()) {
        for (const auto& m : methods) {
          if (ended()) break;
          if (server == "grpc-go" && !speaks_grpc(client)) {
            cells_[cell(server, client, address, m.name, 1)].skipped = "grpc-go serves gRPC only";
            continue;
          }
          if (client.starts_with("connect-go/")) {
            time_go_client(server, client, *process, m);
            continue;
          }
          measure(server, client, *process, transport, m, 1);
          measure(server, client, *process, transport, m, echo_.closed_workers);
        }
      }
    }
    process->stop();
  }

  // One repeat of our client's point: a sweep of one point against the started server.
  void measure(const std::string& server, const std::string& client, const server_process& process,
               const std::string& transport, const echo_method& m, std::size_t workers) {
    const std::size_t at = cell(server, client, process.local_endpoint().to_string(), m.name, workers);
    run_record one;
    try {
      const protocol& p = *protocol_registry::builtin().find(client);
      one = execute(point_plan(base_, echo_, client, process, server, transport,
                               echo_call(p, m, scratch_.proto()), workers),
                    status_);
    } catch (const std::exception& e) {
      status_.failures.push_back(client + " " + std::string(m.name) + ": " + error_text(e));
      return;
    }
    if (!one.incomplete.empty()) incomplete_ = one.incomplete;
    if (one.points.empty()) return;
    point_result& got = one.points.front();
    echo_cell& c = cells_[at];
    const double rps = got.summary.rps_median;
    c.calls_per_second.push_back(rps);
    c.mean_us.push_back(rps > 0 ? static_cast<double>(workers) * 1e6 / rps : 0);
    c.calls += got.summary.outcomes.total();
    c.failed += got.summary.outcomes.failed();
    auto [it, fresh] = points_.try_emplace(at);
    if (fresh) it->second.parameters = got.parameters;
    for (auto& r : got.repeats) it->second.repeats.push_back(std::move(r));
  }

  // connect-go's own client, timing itself over the article's -n calls after a warm-up.
  void time_go_client(const std::string& server, const std::string& client, const server_process& process,
                      const echo_method& m) {
    const endpoint& where = process.local_endpoint();
    const std::size_t at = cell(server, client, where.to_string(), m.name, 1);
    const std::string program = peer_program("connect-go");
    if (program.empty()) {
      cells_[at].skipped = not_built("connect-go's client", "connectgo_peer");
      return;
    }
    const auto stack = std::find_if(std::begin(go_stacks), std::end(go_stacks),
                                    [&](const go_stack& s) { return s.client == client; });
    child_options o;
    o.argv = go_placement(base_.client_threads, "");
    const std::uint64_t n = echo_.sequential_calls;
    const std::uint64_t warmup = std::max<std::uint64_t>(10, n / 20);
    std::string method(m.name);
    std::transform(method.begin(), method.end(), method.begin(), [](unsigned char ch) { return std::tolower(ch); });
    o.argv.insert(o.argv.end(), {program, "call", "-protocol", std::string(stack->flag), "-service", "echo.v1.Echo",
                                 "-method", method, "-text", std::string(m.text), "-count", std::to_string(m.count),
                                 "-n", std::to_string(n), "-warmup", std::to_string(warmup)});
    if (where.is_tcp()) {
      o.argv.insert(o.argv.end(), {"-url", "http://" + where.address + ":" + std::to_string(where.port)});
    } else {  // the URL names no host: the socket is dialled
      o.argv.insert(o.argv.end(), {"-url", "http://echo", "-socket", "@" + where.address});
    }
    if (!base_.client_cpus.empty()) o.cpus = parse_cpu_list(base_.client_cpus);
    o.stdout_path = scratch_.output();
    const std::string label = client + " " + std::string(m.name) + " against " + server;
    try {
      child_process child(o);
      // Bounded as our points are: 10 ms a call, at least a minute; given up when interrupted.
      const auto limit = std::chrono::steady_clock::now() +
                         std::chrono::seconds(std::max<std::uint64_t>(60, (n + warmup) / 100));
      int rc = -1;
      while (rc == -1 && std::chrono::steady_clock::now() < limit) {
        if (base_.interrupted && base_.interrupted->load() != 0) {
          incomplete_ = std::string("interrupted during ") + label;
          status_.interrupted_by = base_.interrupted->load();
          child.stop(std::chrono::seconds(1));
          return;
        }
        rc = child.wait_for_exit(std::chrono::milliseconds(100));
      }
      if (rc == -1) {
        child.stop(std::chrono::seconds(1));
        status_.failures.push_back(label + ": did not end within its time");
        return;
      }
      std::uint64_t calls = 0, failed = 0;
      double mean_us = 0;
      if (rc != 0 || !read_timed(o.stdout_path, calls, failed, mean_us)) {
        status_.failures.push_back(label + ": connect-go's client exited " + std::to_string(rc) +
                                   " without its timing line");
        return;
      }
      echo_cell& c = cells_[at];
      c.mean_us.push_back(mean_us);
      c.calls_per_second.push_back(mean_us > 0 ? 1e6 / mean_us : 0);
      c.calls += calls;
      c.failed += failed;
      if (failed > 0) status_.failures.push_back(label + ": " + std::to_string(failed) + " of " +
                                                 std::to_string(calls) + " calls failed");
    } catch (const std::exception& e) {
      status_.failures.push_back(label + ": " + error_text(e));
    }
  }

  const run_plan& base_;
  const echo_plan& echo_;
  sweep_status& status_;
  scratch_folder scratch_;
  std::vector<echo_cell> cells_;
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::size_t>, std::size_t> index_;
  std::map<std::size_t, point_result> points_;  // by cell, our clients' repeats
  std::string started_at_;
  machine_info machine_;
  std::vector<std::pair<std::string, std::string>> libraries_;
  std::string incomplete_;
};

}  // namespace

const std::vector<std::string>& echo_server_names() {
  static const std::vector<std::string> names = {"ours", "connect-go", "grpc-go"};
  return names;
}

bool echo_client_known(const std::string& name) {
  if (name == "connect-go") return true;
  const protocol* p = protocol_registry::builtin().find(name);
  return p && p->can.user_calls && p->can.user_calls->name == "grpc";
}

run_record run_echo_scenario(const run_plan& base, const echo_plan& echo, sweep_status& status) {
  return echo_run(base, echo, status).run();
}

}  // namespace wirebench::app
