#pragma once
// The flags of a user call, shared by `call` and `run`: an HTTP request as curl and h2load take
// it (--url or --path, -X, -H, -d, --expect-status, --expect-body), a RESP command as redis-cli
// and redis-benchmark do (--command, --expect-reply), or a gRPC method as ghz does (--proto,
// --call, -d JSON, --import-path); and --keyspace for the per-call placeholder. None of them
// given: the greet call.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "wirebench/protocols/user_call.hpp"
#include "wirebench/protocols/user_call_parsing.hpp"
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
  std::string proto;
  std::string grpc_method;
  std::vector<std::string> import_paths;
  bool reflect = false;
  std::uint64_t keyspace = 1'000'000;
};

void add_user_call_options(CLI::App& cmd, user_call_options& o);

struct user_call_choice {
  std::vector<user_call> calls;  // empty: no user call was asked for; several: a mix
  // A workload file's sections instead (workload_options.hpp): each kind of protocol's calls.
  std::map<user_call_kind, std::vector<user_call>> by_kind;
  const std::vector<user_call>& calls_for(user_call_kind kind) const {
    const auto it = by_kind.find(kind);
    return it == by_kind.end() ? calls : it->second;
  }
  // The URL of the server (--url's parts, or a mix's absolute URLs'), when given: without
  // --connect it is dialed.
  std::optional<http_url> url;
};

// Where a URL's host:port is, to dial it: an IP literal or localhost as written, a host name
// through the system's resolver (its first address; start-up only, it blocks). Called only when
// no --connect says where to go, so a URL that only names the Host header is never looked up.
// nullopt, with `problem` set to a one-line message, when the name does not resolve.
std::optional<endpoint> url_endpoint(const http_url& url, std::string& problem);

// The call the flags given on `cmd` describe. Throws std::invalid_argument with a one-line message
// (for exit status 2) on flags that do not go together or do not parse.
user_call_choice read_user_call(const user_call_options& o, const CLI::App& cmd);

}  // namespace wirebench::app
