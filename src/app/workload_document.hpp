#pragma once
// What a workload file says, once read as JSON (a YAML file through workload_yaml.hpp): its
// requests, in sections per kind of request or in one list, each entry read by its protocol's
// form (user_call_form::from_entry), every field checked by name. Apart from the flags
// (workload_options.hpp) so the fuzz target reaches it without the CLI. Start-up code.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "user_call_options.hpp"  // user_call_choice
#include "wirebench/protocols/user_call.hpp"
#include "wirebench/protocols/user_call_form.hpp"

namespace wirebench::app {

// The server a mix's requests go to: every one that names a server (an absolute URL) must name
// the same (a mix loads one server); the others go to it, or to --connect. `take` throws
// std::invalid_argument naming `where` for a request to another server.
struct mix_server {
  std::optional<named_server> server;
  void take(const user_call& call, const std::string& where);
};

// A listing of the forms' names: "http, resp, grpc, msgpack".
std::string form_names(const std::vector<const user_call_form*>& forms);

// The document as the requests of `forms` (one entry per protocol of the run, in order): a
// document with a section per form (by its name) gives each its own (by_form), one without a
// single list for forms that are all the same. `name` names the file in refusals; `d`: the flags
// given beside it; `keyspace`: --keyspace. Throws std::invalid_argument with a line naming the
// file and the field.
user_call_choice workload_from_document(const nlohmann::json& doc, const std::string& name,
                                        const std::vector<const user_call_form*>& forms,
                                        const given_flags& d, std::uint64_t keyspace);

}  // namespace wirebench::app
