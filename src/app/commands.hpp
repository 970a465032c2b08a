#pragma once
// The wirebench program's subcommands. Each adds itself to the CLI11 app and returns the exit
// status when run: 0 success, 1 a call failed, 2 a usage or start-up error.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench::app {

using command_runner = std::function<int()>;

command_runner add_serve_command(CLI::App& app);
command_runner add_call_command(CLI::App& app);
// argc/argv: recorded with the results, so that every figure carries the command that made it.
command_runner add_run_command(CLI::App& app, int argc, char** argv);
command_runner add_merge_command(CLI::App& app);
command_runner add_report_command(CLI::App& app);
command_runner add_list_command(CLI::App& app);

// A subcommand of `app` and the options its flags fill (shared: the runner reads them after
// parsing; `[o = o]`, since clang before 16 captures no structured binding). Its --help:
// `summary`, then its `examples`, one command line each.
template <class Options>
struct new_command {
  CLI::App* cmd;
  std::shared_ptr<Options> options;
};
std::string command_help(const std::string& summary, const std::vector<std::string>& examples);
template <class Options>
new_command<Options> add_command(CLI::App& app, const std::string& name, const std::string& summary,
                                 const std::vector<std::string>& examples = {}) {
  return {app.add_subcommand(name, command_help(summary, examples)), std::make_shared<Options>()};
}

// Shared option helpers.
void add_protocol_option(CLI::App& cmd, std::string& protocol);
// The files a command reads, named after its flags (merge's and report's results files).
void add_input_files_option(CLI::App& cmd, std::vector<std::string>& files, const std::string& help);
int usage_error(const std::string& message);  // prints "wirebench: <message>", returns 2
// "" when `p` has a server implementation called `engine`; else what is wrong, for the user.
std::string check_engine(const protocol& p, const std::string& engine);

}  // namespace wirebench::app
