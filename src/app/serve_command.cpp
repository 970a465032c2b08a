// wirebench serve: run one protocol's server until SIGINT or SIGTERM, then stop gracefully
// (replies already due are sent, connections closed, threads joined) and exit 0.
#include <csignal>
#include <iostream>
#include <memory>

#include <pthread.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "commands.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench::app {

command_runner add_serve_command(CLI::App& app) {
  struct options {
    std::string protocol;
    std::string listen = "tcp://127.0.0.1:7000";
    std::size_t threads = 1;
    std::string engine;
    std::size_t max_frame = 64 * 1024;
    std::string cpus;
    tls_options tls;
    std::uint32_t max_streams = 100;
    std::uint32_t stream_window = 0;
    std::uint32_t connection_window = 0;
    int ready_fd = -1;
  };
  auto o = std::make_shared<options>();
  auto* cmd = app.add_subcommand("serve", "Run a protocol's server until SIGINT/SIGTERM");
  add_protocol_option(*cmd, o->protocol);
  cmd->add_option("-l,--listen", o->listen, "Endpoint to listen on")->capture_default_str();
  cmd->add_option("-t,--threads", o->threads, "Server event-loop threads")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--engine", o->engine,
                  "Server implementation, for protocols with several (grpc: cq, callback; "
                  "default: the first)");
  cmd->add_option("--max-frame", o->max_frame, "Largest request accepted, in bytes")
      ->check(CLI::Range(1, 1 << 30))
      ->capture_default_str();
  cmd->add_option("--cpus", o->cpus, "Pin server threads to these CPUs, e.g. 0 or 0-1");
  cmd->add_option("--max-streams", o->max_streams, "HTTP/2: SETTINGS_MAX_CONCURRENT_STREAMS")
      ->check(CLI::Range(1u, 1u << 31))
      ->capture_default_str();
  cmd->add_option("--stream-window", o->stream_window,
                  "HTTP/2: per-stream flow-control window in bytes (0: 65535)")
      ->check(CLI::Range(0u, (1u << 31) - 1));
  cmd->add_option("--connection-window", o->connection_window,
                  "HTTP/2: connection flow-control window in bytes (0: 65535)")
      ->check(CLI::Range(0u, (1u << 31) - 1));
  cmd->add_flag("--tls", o->tls.enabled,
                "Serve over TLS (http2: ALPN h2); without --tls-cert a self-signed certificate "
                "is made at start-up");
  cmd->add_option("--tls-cert", o->tls.certificate_file, "TLS certificate chain (PEM)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--tls-key", o->tls.private_key_file, "TLS private key (PEM)")
      ->check(CLI::ExistingFile);

  // For programs that start a server (wirebench run): the bound endpoint, one line, on this fd.
  cmd->add_option("--ready-fd", o->ready_fd,
                  "Write the endpoint to this file descriptor once listening, then close it")
      ->check(CLI::Range(0, 1 << 20));

  return [o]() -> int {
    // A server started by a program (--ready-fd) must not outlive it: were `wirebench run` or a
    // benchmark killed, its server would otherwise go on listening. SIGTERM is the graceful stop
    // below. A parent that died before this line is caught when the ready line cannot be written.
    if (o->ready_fd >= 0) ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    server_config config;
    std::string error;
    auto where = endpoint::parse(o->listen, &error);
    if (!where) return usage_error("--listen " + error);
    config.listen = *where;
    config.threads = o->threads;
    const protocol& chosen = *protocol_registry::builtin().find(o->protocol);
    if (!o->engine.empty())
      if (auto problem = check_engine(chosen, o->engine); !problem.empty())
        return usage_error("--engine " + problem);
    config.engine = o->engine;
    config.max_frame_bytes = o->max_frame;
    if (!o->cpus.empty()) config.cpus = parse_cpu_list(o->cpus);
    config.tls = o->tls;
    config.max_concurrent_streams = o->max_streams;
    config.stream_window_bytes = o->stream_window;
    config.connection_window_bytes = o->connection_window;
    if (!config.tls.certificate_file.empty()) config.tls.enabled = true;

    // Block the stop signals before any thread starts, so that only sigwait() below sees them.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

    std::unique_ptr<protocol_server> server;
    try {
      server = chosen.make_server(config);
    } catch (const std::exception& e) {
      return usage_error(e.what());
    }
    const std::string engine = chosen.engine_for(o->engine);
    std::cerr << "wirebench: serving " << o->protocol << " on "
              << server->local_endpoint().to_string() << " with " << config.threads << " thread(s)"
              << (engine.empty() ? "" : " on the " + engine + " engine")
              << "; SIGINT or SIGTERM stops\n";
    if (o->ready_fd >= 0) {
      const std::string line = server->local_endpoint().to_string() + "\n";
      const bool told = ::write(o->ready_fd, line.data(), line.size()) ==
                        static_cast<ssize_t>(line.size());
      ::close(o->ready_fd);
      if (!told) {  // nobody is waiting for this server: it would serve no one, and linger
        std::cerr << "wirebench: could not write to --ready-fd " << o->ready_fd << ": stopping\n";
        server->stop();
        return 1;
      }
    }
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server->stop();
    const auto stats = server->stats();
    std::cerr << "wirebench: stopped on " << (signal == SIGINT ? "SIGINT" : "SIGTERM") << "; "
              << stats.accepted << " connections, " << stats.requests << " requests\n";
    return 0;
  };
}

}  // namespace wirebench::app
