// wirebench: serve, call and load-test every registered protocol the same way.
#include <algorithm>
#include <iostream>

#include <openssl/crypto.h>

#include "commands.hpp"
#include "error_text.hpp"
#include "typo_hint.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/version.hpp"

namespace wirebench::app {

int usage_error(const std::string& message) {
  std::cerr << "wirebench: " << message << "\n";
  return 2;
}

void add_protocol_option(CLI::App& cmd, std::string& protocol) {
  cmd.add_option("-p,--protocol", protocol, "Protocol name (see `wirebench list`)")
      ->required()
      ->check([](const std::string& name) -> std::string {
        if (protocol_registry::builtin().find(name) != nullptr) return {};
        std::string known;
        for (const auto& p : protocol_registry::builtin().all())
          known += (known.empty() ? "" : ", ") + p.name;
        return "unknown protocol '" + name + "' (known: " + known + ")";
      });
}

std::string command_help(const std::string& summary, const std::vector<std::string>& examples) {
  std::string help = summary;
  if (!examples.empty()) help += examples.size() == 1 ? "\nExample:" : "\nExamples:";
  for (const std::string& example : examples) help += "\n  " + example;
  return help;
}

void add_input_files_option(CLI::App& cmd, std::vector<std::string>& files, const std::string& help) {
  cmd.add_option("files", files, help)->required()->check(CLI::ExistingFile);
}

std::string check_engine(const protocol& p, const std::string& engine) {
  if (std::find(p.can.server_engines.begin(), p.can.server_engines.end(), engine) != p.can.server_engines.end())
    return {};
  if (p.can.server_engines.empty()) return engine + ": " + p.name + " has one server implementation";
  std::string known;
  for (const auto& e : p.can.server_engines) known += (known.empty() ? "" : ", ") + e;
  return engine + ": " + p.name + " offers " + known;
}

}  // namespace wirebench::app

int main(int argc, char** argv) {
  using namespace wirebench;
  // No OpenSSL clean-up at exit: grpc++ ends its threads after main returns, and one still using
  // OpenSSL would find it torn down, or exit without freeing its error state (grpc/grpc#38539).
  // First OpenSSL call of the process, as it must be.
  OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr);
  CLI::App app{
      "wirebench: measure request-response protocols the same way.\n"
      "Endpoints: tcp://127.0.0.1:7000, tcp://[::1]:7000, unix:/path/sock, unix:@abstract-name"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Help for every subcommand");
  // What a result records under `libraries`: the versions measured and the I/O path built.
  app.set_version_flag("--version", [] {
    std::string text = "wirebench " WIREBENCH_VERSION_STRING;
    for (const auto& [library, version] : library_versions()) text += "\n" + library + " " + version;
    return text;
  });

  auto list = app::add_list_command(app);
  auto serve = app::add_serve_command(app);
  auto call = app::add_call_command(app);
  auto run = app::add_run_command(app, argc, argv);
  auto merge = app::add_merge_command(app);
  auto report = app::add_report_command(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    // Subcommand --help arrives here too, as a CallForHelp raised inside the subcommand.
    if (e.get_exit_code() == 0) {
      for (auto* sub : app.get_subcommands()) std::cout << sub->help();
      return 0;
    }
    // A typo is named with what it was probably meant to be.
    const std::string hint = app::typo_hint(app, argc, argv);
    return app::usage_error(std::string(e.what()) + (hint.empty() ? " (see wirebench --help)" : hint));
  }

  try {
    if (app.got_subcommand("list")) return list();
    if (app.got_subcommand("serve")) return serve();
    if (app.got_subcommand("call")) return call();
    if (app.got_subcommand("run")) return run();
    if (app.got_subcommand("merge")) return merge();
    if (app.got_subcommand("report")) return report();
  } catch (const std::exception& e) {
    return app::usage_error(app::error_text(e));
  }
  return 2;
}
