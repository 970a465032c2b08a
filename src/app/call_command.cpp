// wirebench call: one greet call per word, all in flight at once, replies printed in word order.
#include <chrono>
#include <future>
#include <iostream>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::app {

command_runner add_call_command(CLI::App& app) {
  struct options {
    std::string protocol;
    std::string connect = "tcp://127.0.0.1:7000";
    std::vector<std::string> words;
    double timeout_s = 5;
    tls_options tls;
  };
  auto o = std::make_shared<options>();
  auto* cmd = app.add_subcommand("call", "Make one greet call per WORD and print each reply");
  add_protocol_option(*cmd, o->protocol);
  cmd->add_option("-c,--connect", o->connect, "Server endpoint")->capture_default_str();
  cmd->add_option("--timeout", o->timeout_s, "Seconds to wait for each reply")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--tls", o->tls.enabled, "Connect over TLS (http2: ALPN h2); no verification "
                "unless --tls-ca is given");
  cmd->add_option("--tls-ca", o->tls.ca_file, "Verify the server's certificate against this CA (PEM)")
      ->check(CLI::ExistingFile);
  cmd->add_option("words", o->words, "Names to greet")->required();

  return [o]() -> int {
    client_config config;
    std::string error;
    auto where = endpoint::parse(o->connect, &error);
    if (!where) return usage_error("--connect " + error);
    config.connect = *where;
    const auto timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(o->timeout_s));
    config.connect_timeout = timeout;
    config.reply_timeout = timeout;
    config.tls = o->tls;
    if (!config.tls.ca_file.empty()) config.tls.enabled = true;
    std::unique_ptr<protocol_client> client;
    try {
      client = protocol_registry::builtin().find(o->protocol)->make_client(config);
    } catch (const std::exception& e) {
      return usage_error(e.what());
    }

    struct outcome {
      std::error_code ec;
      std::string reply;
    };
    std::vector<std::promise<outcome>> results(o->words.size());
    for (std::size_t i = 0; i < o->words.size(); ++i) {
      client->async_greet(o->words[i], [&results, i](std::error_code ec, std::string_view reply) {
        results[i].set_value({ec, std::string(reply)});
      });
    }
    int status = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
      // Every call completes (with a reply or an error), so this wait ends.
      outcome r = results[i].get_future().get();
      if (r.ec) {
        std::cerr << "wirebench: call '" << o->words[i] << "' failed: " << r.ec.message() << " ("
                  << error_name(r.ec) << ")";
        if (!r.reply.empty()) std::cerr << ": " << r.reply;  // the server's own words
        std::cerr << "\n";
        status = 1;
      } else if (r.reply != expected_greeting(o->words[i])) {
        // A reply that does not answer this call: another call's, or a broken server's.
        std::cerr << "wirebench: call '" << o->words[i] << "' got a wrong reply: '" << r.reply
                  << "' (expected '" << expected_greeting(o->words[i]) << "')\n";
        status = 1;
      } else {
        std::cout << r.reply << "\n";
      }
    }
    client->close();
    return status;
  };
}

}  // namespace wirebench::app
