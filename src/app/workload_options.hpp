#pragma once
// A mix of requests for `run`: --request given several times (or @FILE, a request per line, as
// h2load's -i reads URIs) with --weights, or --workload FILE (JSON, or YAML: workload_yaml.hpp)
// listing requests with weights and expectations. Each request is read in the words of the
// protocol it goes to (its user_call_kind): an HTTP request as "[METHOD] URL-or-PATH", a RESP
// command as redis-cli splits it, a MessagePack-RPC call as "METHOD [PARAMS-JSON]", a gRPC call
// as "package.Service/Method [MESSAGE-JSON]" (defined by --proto, or asked of the server with
// --reflect). The schema of a workload file is documented in docs/WORKLOADS.md.
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

// The requests the flags on `cmd` list, read in their protocols' words; the user-call flags that go with every
// request (-H, -d, --expect-status, --expect-body, --expect-reply, --keyspace; gRPC's --proto,
// --import-path, --reflect) apply to each as its default. Throws std::invalid_argument with a one-line message (exit status 2) on flags or
// a file that do not parse; a file's message names the file and the field.
// `kinds`: what each protocol of the run sends (one entry each, in order); a workload file with a
// section per kind (http, resp, grpc, msgpack) gives each its own requests (user_call_choice::
// by_kind), a file without sections and --request one list for protocols that all take it.
user_call_choice read_workload(const workload_options& o, const user_call_options& user,
                               const CLI::App& cmd, const std::vector<user_call_kind>& kinds);

}  // namespace wirebench::app
