#pragma once
// The flags of a user call, shared by `call` and `run`: an HTTP request as curl and h2load take
// it (--url or --path, -X, -H, -d, --expect-status, --expect-body) or a RESP command as
// redis-cli and redis-benchmark do (--command, --expect-reply), and --keyspace for the per-call
// placeholder. None of them given: the greet call.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "wirebench/protocols/user_call.hpp"
#include "wirebench/transport/endpoint.hpp"

namespace wirebench::app {

struct user_call_options {
  std::string url;
  std::string path;
  std::string method;
  std::vector<std::string> headers;
  std::string data;
  int expect_status = 200;
  std::string expect_body;
  std::string command;
  std::string expect_reply;
  std::uint64_t keyspace = 1'000'000;
};

void add_user_call_options(CLI::App& cmd, user_call_options& o);

struct user_call_choice {
  std::optional<user_call> call;  // nullopt: no user call was asked for
  std::optional<endpoint> url_endpoint;  // where --url points, when it names a server
  std::string url_problem;  // why --url names no server this can dial (a host name), else ""
};

// The call the flags given on `cmd` describe. Throws std::invalid_argument with a one-line message
// (for exit status 2) on flags that do not go together or do not parse.
user_call_choice read_user_call(const user_call_options& o, const CLI::App& cmd);

}  // namespace wirebench::app
