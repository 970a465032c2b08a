#pragma once
// A mix of requests for `run`: --request given several times (or @FILE, a request per line, as
// h2load's -i reads URIs) with --weights, or --workload FILE (JSON, or YAML: workload_yaml.hpp)
// listing requests with weights and expectations. Each request is read in the words of the
// protocol it goes to, by its user-call form (user_call_form.hpp: an HTTP request as
// "[METHOD] URL-or-PATH", a RESP command as redis-cli splits it, ...); this file keeps the
// files, the sections, the weights and the checks of a whole mix. The schema of a workload file
// is documented in docs/WORKLOADS.md.
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "user_call_options.hpp"
#include "wirebench/protocols/user_call.hpp"

namespace wirebench::app {

struct workload_options {
  std::vector<std::string> requests;  // --request, in order
  std::string weights;                // --weights W1,W2,...
  std::string workload_file;          // --workload
};

void add_workload_options(CLI::App& cmd, workload_options& o);

// Whether --request or --workload was given.
bool workload_given(const CLI::App& cmd);

// The requests the flags on `cmd` list, read in their protocols' words; the user-call flags given
// beside them that a form takes in a mix (user_call_flag::in_mix: -H, -d, the expectations,
// gRPC's --proto) apply to each as its default, and --keyspace to all. Throws
// std::invalid_argument with a one-line message (exit status 2) on flags or a file that do not
// parse; a file's message names the file and the field.
// `forms`: what each protocol of the run sends (one entry each, in order; nullptr: only the greet
// call); a workload file with a section per form (by its name: http, resp, ...) gives each its
// own requests (user_call_choice::by_form), a file without sections and --request one list for
// protocols that all take it.
user_call_choice read_workload(const workload_options& o, const user_call_options& user,
                               const CLI::App& cmd, const std::vector<const user_call_form*>& forms);

}  // namespace wirebench::app
