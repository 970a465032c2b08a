// wirebench serve: run one protocol's server until SIGINT or SIGTERM, then stop gracefully
// (the protocol's going-away signal, what clients sent before it answered, connections closed,
// threads joined, bounded by --grace) and exit 0. A second signal ends the grace at once.
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <pthread.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "commands.hpp"
#include "number_checks.hpp"
#include "error_text.hpp"
#include "temporary_certificate.hpp"
#include "wirebench/core/duration_text.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/protocols/server_args.hpp"

namespace wirebench::app {
namespace {

// What serve listens on unless told otherwise: the port clients connect to by default.
server_config serve_defaults() {
  server_config c;
  c.listen = client_config{}.connect;
  return c;
}

const char* signal_name(int signal) { return signal == SIGINT ? "SIGINT" : "SIGTERM"; }

// How the start-up line says TLS, and how a client can trust the certificate.
std::string tls_words(const server_config& config, const std::string& cert_out) {
  if (!config.tls.enabled) return "";
  if (!cert_out.empty())
    return " over TLS (a self-signed certificate for localhost, 127.0.0.1 and ::1, written to " +
           cert_out + ": clients verify it with --tls-ca " + cert_out + ")";
  if (!config.tls.certificate_file.empty())
    return " over TLS (certificate " + config.tls.certificate_file + ")";
  return " over TLS (a self-signed certificate made at start-up: clients need --insecure, or "
         "serve with --cert-out FILE and verify against it)";
}

// The graceful stop, on a thread of its own, while this thread waits for a second signal, which
// ends the grace at once. A server that cannot end its grace early (grpc++) gets a second to
// close, and then the process exits without it.
void stop_server(protocol_server& server, const sigset_t& stop_signals) {
  std::atomic<bool> stopped{false};
  std::thread stopper([&] {
    server.stop();
    stopped.store(true);
  });
  const timespec poll{0, 20'000'000};
  while (!stopped.load()) {
    const int second = sigtimedwait(&stop_signals, nullptr, &poll);
    if (second <= 0) continue;
    std::cerr << "wirebench: " << signal_name(second) << " again: calls still in flight are cut\n";
    server.end_grace();
    for (int waited = 0; !stopped.load() && waited < 50; ++waited)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (!stopped.load()) {
      std::cerr << "wirebench: the server did not close within a second; exiting without it\n";
      std::_Exit(1);
    }
  }
  stopper.join();
}

}  // namespace

command_runner add_serve_command(CLI::App& app) {
  struct options {
    std::string protocol;
    int ready_fd = -1;
    std::string cert_out;
    // server_config's flags (server_args.hpp), as CLI11 found them: CLI11 reads the command line
    // and writes --help; from_args gives them their meaning, as it does for a parent's to_args.
    std::vector<std::pair<const server_flag*, CLI::Option*>> server_options;
  };
  auto [cmd, o] = add_command<options>(app, "serve", "Run a protocol's server until SIGINT/SIGTERM");
  add_protocol_option(*cmd, o->protocol);
  const server_config defaults = serve_defaults();
  for (const server_flag& flag : server_flags()) {
    const std::string names =
        flag.short_name.empty() ? flag.name : flag.short_name + "," + flag.name;
    CLI::Option* option = flag.value_name.empty()
                              ? cmd->add_flag(names, flag.help)
                              : cmd->add_option(names, flag.help)->type_name(flag.value_name);
    option->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // a later flag overrides
    if (auto shown = flag.write(defaults); shown && !flag.value_name.empty())
      option->default_str(*shown);
    o->server_options.emplace_back(&flag, option);
  }

  // For programs that start a server (wirebench run): the bound endpoint, one line, on this fd.
  cmd->add_option("--ready-fd", o->ready_fd,
                  "Write the endpoint to this file descriptor once listening, then close it")
      ->check(from_to(0, 1 << 20));
  cmd->add_option("--cert-out", o->cert_out,
                  "With --tls and no --tls-cert: write the self-signed certificate made at start-up "
                  "here (PEM), for clients to verify it with --tls-ca FILE");

  return [o = o]() -> int {
    // A server started by a program (--ready-fd) must not outlive it: were `wirebench run` or a
    // benchmark killed, its server would otherwise go on listening. SIGTERM is the graceful stop
    // below. A parent that died before this line is caught when the ready line cannot be written.
    if (o->ready_fd >= 0) ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    std::vector<std::string> args;
    for (const auto& [flag, option] : o->server_options) {
      if (option->count() == 0) continue;
      args.push_back(flag->name);
      if (!flag->value_name.empty()) args.push_back(option->as<std::string>());
    }
    server_config config;
    try {
      config = from_args(args, serve_defaults());
    } catch (const std::invalid_argument& e) {
      return usage_error(error_text(e));
    }
    // --cert-out: the certificate is made here rather than in the server, so that it can be
    // written out; the server reads it from a private folder removed when serve exits.
    std::optional<temporary_certificate> certificate;
    if (!o->cert_out.empty()) {
      if (!config.tls.enabled) return usage_error("--cert-out needs --tls");
      if (!config.tls.certificate_file.empty())
        return usage_error("--cert-out: the server serves --tls-cert " +
                           config.tls.certificate_file + ": give clients that file");
      try {
        certificate.emplace();
        std::filesystem::copy_file(certificate->certificate(), o->cert_out,
                                   std::filesystem::copy_options::overwrite_existing);
      } catch (const std::exception& e) {
        return usage_error("--cert-out " + o->cert_out + ": " + error_text(e));
      }
      config.tls.certificate_file = certificate->certificate();
      config.tls.private_key_file = certificate->key();
    }
    const protocol& chosen = *protocol_registry::builtin().find(o->protocol);
    if (!config.engine.empty())
      if (auto problem = check_engine(chosen, config.engine); !problem.empty())
        return usage_error("--engine " + problem);

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
      return usage_error(error_text(e));
    }
    const std::string engine = chosen.can.engine_for(config.engine);
    std::cerr << "wirebench: serving " << o->protocol << " on "
              << server->local_endpoint().to_string() << " with " << config.threads << " thread(s)"
              << (engine.empty() ? "" : " on the " + engine + " engine")
              << tls_words(config, o->cert_out) << "; SIGINT or SIGTERM stops\n";
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
    std::cerr << "wirebench: " << signal_name(signal) << ": stopping, up to "
              << format_duration(config.grace) << " for the calls taken in (again: at once)\n";
    const auto began = std::chrono::steady_clock::now();
    stop_server(*server, stop_signals);
    const auto took = std::chrono::steady_clock::now() - began;
    const auto stats = server->stats();
    std::cerr << "wirebench: stopped on " << signal_name(signal) << " in "
              << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms: ";
    if (stats.grace_counted)
      std::cerr << stats.grace_finished << " calls finished in the grace, " << stats.grace_cut
                << " cut; ";
    std::cerr << stats.accepted << " connections, " << stats.requests << " requests\n";
    return 0;
  };
}

}  // namespace wirebench::app
