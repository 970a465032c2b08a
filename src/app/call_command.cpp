// wirebench call: one greet call per word, all in flight at once, replies printed in word order;
// or, with a user call (--url, --path, --command), that call -n times, each reply printed.
#include <chrono>
#include <future>
#include <iostream>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "number_checks.hpp"
#include "error_text.hpp"
#include "keepalive_flags.hpp"
#include "max_reply_flag.hpp"
#include "resolve_flag.hpp"
#include "tls_flags.hpp"
#include "user_call_options.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::app {

command_runner add_call_command(CLI::App& app) {
  struct options {
    std::string protocol;
    std::string connect = "tcp://127.0.0.1:7000";
    std::vector<std::string> resolve;  // --resolve HOST:PORT:ADDR
    std::vector<std::string> words;
    std::size_t count = 1;
    double timeout_s = 5;
    std::size_t max_reply_bytes = default_max_reply_bytes;
    tls_options tls;
    keepalive_flags keepalive;
    user_call_options user;
  };
  auto [cmd, o] = add_command<options>(
      app, "call",
      "Make one greet call per WORD and print each reply; or with a user call (--url, --path, "
      "--command) make it -n times and print each reply's body.",
      {"wirebench call -p line -c tcp://127.0.0.1:7000 alice bob",
       "wirebench call -p http1 --url http://127.0.0.1:8080/health",
       "wirebench call -p resp -c tcp://127.0.0.1:6379 --command 'SET k:__rand_int__ v' -n 3"});
  add_protocol_option(*cmd, o->protocol);
  cmd->add_option("-c,--connect", o->connect, "Server endpoint")->capture_default_str();
  cmd->add_option("--timeout", o->timeout_s, "Seconds to wait for each reply")
      ->check(above_zero())
      ->capture_default_str();
  add_max_reply_flag(*cmd, o->max_reply_bytes);
  add_tls_client_flags(*cmd, o->tls);
  add_resolve_flag(*cmd, o->resolve);
  add_keepalive_client_flags(*cmd, o->keepalive);
  cmd->add_option("-n,--count", o->count, "A user call: how many to make, all at once")
      ->check(from_to(1, 100000))
      ->capture_default_str();
  add_user_call_options(*cmd, o->user);
  cmd->add_option("words", o->words, "Names to greet (the greet call)");

  return [o = o, cmd = cmd]() -> int {
    client_config config;
    user_call_choice user;
    try {
      user = read_user_call(o->user, *cmd);
    } catch (const std::exception& e) {
      return usage_error(error_text(e));
    }
    if (!user.calls.empty() && !o->words.empty())
      return usage_error("a user call takes no names (" + o->words.front() +
                         "...): give -n for more calls");
    if (user.calls.empty() && o->words.empty()) return usage_error("give names to greet, or a user call");
    if (user.calls.empty() && cmd->get_option("--count")->count() > 0)
      return usage_error("-n counts user calls; the greet call makes one per name");
    std::string error;
    auto where = endpoint::parse(o->connect, &error);
    if (!where) return usage_error("--connect " + error);
    config.connect = *where;
    if (!o->resolve.empty() && (!user.server || cmd->get_option("--connect")->count() > 0))
      return usage_error(resolve_needs_url);
    if (cmd->get_option("--connect")->count() == 0 && user.server) {  // the URL names the server
      std::string problem;
      const auto url_server = resolve_url(o->resolve, *user.server, problem);
      if (!url_server) return usage_error(problem);
      config.connect = *url_server;
    }
    const auto timeout = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
        std::chrono::duration<double>(o->timeout_s));
    config.connect_timeout = timeout;
    config.reply_timeout = timeout;
    config.max_frame_bytes = o->max_reply_bytes;
    config.show_replies = true;
    config.tls = o->tls;
    if (auto problem = settle_tls_client_flags(config.tls); !problem.empty())
      return usage_error(problem);
    if (auto problem = settle_keepalive_flags(o->keepalive, config.keepalive); !problem.empty())
      return usage_error(problem);
    if (user.server && user.server->tls) config.tls.enabled = true;  // an https:// URL
    config.calls = user.calls;
    const protocol& p = *protocol_registry::builtin().find(o->protocol);
    if (p.reference.prepare_client_process) p.reference.prepare_client_process();
    std::unique_ptr<protocol_client> client;
    try {
      client = p.make_client(config);
    } catch (const std::exception& e) {
      return usage_error(error_text(e));
    }

    struct outcome {
      std::error_code ec;
      std::string reply;
    };
    // The greet call: one call per word. A user call: `count` calls, named by number.
    const std::size_t calls = !user.calls.empty() ? o->count : o->words.size();
    auto label = [&](std::size_t i) {
      return !user.calls.empty() ? std::to_string(i + 1) + " of " + std::to_string(calls)
                       : "'" + o->words[i] + "'";
    };
    std::vector<std::promise<outcome>> results(calls);
    for (std::size_t i = 0; i < calls; ++i) {
      const std::string name = !user.calls.empty() ? "call-" + std::to_string(i + 1) : o->words[i];
      client->async_greet(name, [&results, i](std::error_code ec, std::string_view reply) {
        results[i].set_value({ec, std::string(reply)});
      });
    }
    int status = 0;
    for (std::size_t i = 0; i < results.size(); ++i) {
      // Every call completes (with a reply or an error), so this wait ends.
      outcome r = results[i].get_future().get();
      if (r.ec) {
        std::cerr << "wirebench: call " << label(i) << " failed: " << r.ec.message() << " ("
                  << error_name(r.ec) << ")";
        if (!r.reply.empty()) std::cerr << ": " << r.reply;  // the server's own words
        std::cerr << "\n";
        status = 1;
      } else if (user.calls.empty() && r.reply != expected_greeting(o->words[i])) {
        // A reply that does not answer this call: another call's, or a broken server's.
        std::cerr << "wirebench: call " << label(i) << " got a wrong reply: '" << r.reply
                  << "' (expected '" << expected_greeting(o->words[i]) << "')\n";
        status = 1;
      } else if (user.calls.empty()) {
        std::cout << r.reply << "\n";
      } else {
        // A user call's reply is printed as it came (curl prints a body so), with a newline
        // after it when it has none, so that replies do not run together.
        std::cout << r.reply;
        if (r.reply.empty() || r.reply.back() != '\n') std::cout << "\n";
      }
    }
    client->close();
    return status;
  };
}

}  // namespace wirebench::app
