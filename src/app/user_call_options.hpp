#pragma once
// The flags of a user call, shared by `call` and `run`: each user-call form's own
// (user_call_form.hpp: an HTTP request as curl and h2load take it, a RESP command as redis-cli
// does, a gRPC method as ghz does, ...), declared once each under its form's heading, and
// --keyspace for the per-call placeholder. None of them given: the greet call.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "wirebench/protocols/user_call.hpp"
#include "wirebench/protocols/user_call_form.hpp"
#include "wirebench/transport/endpoint.hpp"

namespace wirebench::app {

struct user_call_options {
  // Every form of the registry's (protocol_registry::forms), by rank.
  std::vector<const user_call_form*> forms;
  // Where CLI11 puts each form flag's values, by its long name (std::map: its nodes stay put).
  std::map<std::string, std::vector<std::string>> values;
  std::map<std::string, bool> switches;
  std::uint64_t keyspace = 1'000'000;

  // The form flags given on the command line just parsed.
  given_flags given(const CLI::App& cmd) const;
};

void add_user_call_options(CLI::App& cmd, user_call_options& o);

struct user_call_choice {
  std::vector<user_call> calls;  // empty: no user call was asked for; several: a mix
  // A workload file's sections instead (workload_options.hpp): each form's calls.
  std::map<const user_call_form*, std::vector<user_call>> by_form;
  const std::vector<user_call>& calls_for(const user_call_form* form) const {
    const auto it = by_form.find(form);
    return it == by_form.end() ? calls : it->second;
  }
  // The server the calls name (an absolute URL's), when they name one: without --connect it is
  // dialed.
  std::optional<named_server> server;
};

// The long name of a flag ("--header" of "-H,--header").
std::string long_name(const user_call_flag& flag);
// The form that owns flag `name` (its help is that form's), or the first that reads it.
const user_call_form* flag_owner(const std::vector<const user_call_form*>& forms,
                                 const std::string& name);
// How `form` reads flag `name`; nullptr when it does not.
const user_call_flag* read_flag(const user_call_form& form, const std::string& name);

// Where a named server is, to dial it: an IP literal or localhost as written, a host name
// through the system's resolver (its first address; start-up only, it blocks). Called only when
// no --connect says where to go, so a URL that only names the Host header is never looked up.
// nullopt, with `problem` set to a one-line message, when the name does not resolve.
std::optional<endpoint> url_endpoint(const named_server& server, std::string& problem);

// The call the flags given on `cmd` describe. Throws std::invalid_argument with a one-line message
// (for exit status 2) on flags that do not go together or do not parse.
user_call_choice read_user_call(const user_call_options& o, const CLI::App& cmd);

}  // namespace wirebench::app
