#pragma once
// How one family's user call (user_call.hpp) is written and kept: its flags on the command line,
// one request of a mix on a line (--request) and in a workload file, its description, the fields
// the placeholders go into, and its record in results. Each family's folder defines one (HTTP in
// http/, RESP in resp/, gRPC in grpc/, MessagePack-RPC in msgpack_rpc/) and the protocols
// that send it name it (protocol_capabilities::user_calls); the registry lists every form its protocols name
// (protocol_registry::forms), so app/ and load/ read and write user calls without knowing one.
//
// Start-up code: every reader throws std::invalid_argument (or setting_error) with a one-line
// message for the user, naming the input ("where") and what is wrong.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "wirebench/protocols/json_fields.hpp"
#include "wirebench/protocols/user_call.hpp"

namespace wirebench {

// A command-line flag a form reads. Forms may read the same flag (-H is HTTP's headers and gRPC's
// metadata): the CLI declares it once, with the help of the form that owns it.
struct user_call_flag {
  std::string names;  // CLI11's spelling: "-H,--header"; the last is its long name
  std::string help;
  enum class arity : std::uint8_t { one, repeated, none } takes = arity::one;  // none: a switch
  bool owned = true;   // false: another form's flag, read here too (its help is the owner's)
  bool asks = false;   // giving it asks for this form's call (--url, --command, --call)
  bool in_mix = false;  // beside --request or --workload: each request's default
  std::string default_text = {};  // --help's default
  std::optional<std::pair<std::uint64_t, std::uint64_t>> range = {};  // a whole number in it
  bool existing_file = false;
};

// The flags given on a command line, by long name ("--url"): each value given, in order (a switch
// has one empty value). Flags not given are absent.
struct given_flags {
  std::map<std::string, std::vector<std::string>, std::less<>> values;
  bool has(std::string_view name) const { return values.find(name) != values.end(); }
  // The last value given, or `otherwise`.
  std::string last(std::string_view name, std::string otherwise = {}) const;
  const std::vector<std::string>& all(std::string_view name) const;
};

// The server a request names (an absolute URL's): a mix loads one, and without --connect the
// CLI dials it.
struct named_server {
  bool tls = false;
  std::string host;  // without IPv6 brackets
  std::uint16_t port = 0;
  std::string origin;  // as written: "https://example.com:8443"
  bool same_place(const named_server& o) const {
    return tls == o.tls && host == o.host && port == o.port;
  }
};

struct user_call_form {
  // What it is.
  std::string name = {};        // "http": results' "kind", a workload file's section
  std::string what = {};        // "HTTP request"
  std::string article = {};     // "an"
  std::string asked_with = {};  // the flags that ask for it: "--url or --path"
  int rank = 0;  // orders every listing of forms: HTTP 10, RESP 20, gRPC 30, MessagePack-RPC 40
  std::string heading = {};  // --help's heading of the flags it owns: "User call (http1, http2)"
  std::vector<user_call_flag> flags = {};
  std::string line_help = {};  // a line of a mix, for --help: "[METHOD] URL-or-/path (http1, http2)"
  std::vector<std::string> entry_fields = {};  // a workload file's request's, besides name, weight

  // How it reads and writes one (the_form below fills these from a struct's statics).
  // A request from the flags given (one of its `asks` flags among them). Every flag given that
  // the form does not read was refused before.
  std::function<user_request(const given_flags&)> from_flags = {};
  // One request of a mix, `line` in the family's words ("POST /x", "SET k v"), with the `in_mix`
  // flags given as its defaults.
  std::function<user_request(std::string_view line, const given_flags& defaults,
                             const std::string& where)>
      from_line = {};
  // A workload file's request, with the `in_mix` flags given as its defaults.
  std::function<user_request(const json_fields& entry, const given_flags& defaults)> from_entry = {};
  // What it sends and expects, without the placeholder's range (describe()).
  std::function<std::string(const user_request&)> text = {};
  std::function<std::vector<request_field>(user_request&)> fields = {};
  // Its record in results (the fields beside kind, text, keyspace, weight and name), and back.
  std::function<nlohmann::json(const user_request&)> to_results = {};
  std::function<user_request(const json_fields&)> from_results = {};
  // The server it names, if any (its TLS, the name TLS checks, and where the CLI dials).
  std::function<std::optional<named_server>(const user_request&)> server = {};
  // True when what the call is can only be known from the server (gRPC reflection): the CLI does
  // not try its codecs before the run.
  std::function<bool(const user_request&)> defined_by_server = {};
  // For tests (the client-codec fuzz target, the forms' tests): requests of each shape worth
  // driving, as workload entries (JSON text); `proto_file` names a .proto with
  // wirebench.echo.Echo for forms that read one.
  std::function<std::vector<std::string>(const std::string& proto_file)> examples = {};

  // "an HTTP request"
  std::string phrase() const { return article + " " + what; }
};

// A family's form, made once on first use: its data (name, words, flags, fields) from
// `Functions::make_form()`, and the functions `Functions` has as static members, by the names
// above: from_flags, from_line, from_entry, text, fields, to_results and from_results, and server,
// defined_by_server and examples where it has them. Each family's folder writes one such struct
// and returns the_form<it>() from its form_of, so that no form wires its functions by hand.
template <class Functions>
const user_call_form& the_form() {
  static const user_call_form form = [] {
    user_call_form f = Functions::make_form();
    f.from_flags = Functions::from_flags;
    f.from_line = Functions::from_line;
    f.from_entry = Functions::from_entry;
    f.text = Functions::text;
    f.fields = Functions::fields;
    f.to_results = Functions::to_results;
    f.from_results = Functions::from_results;
    if constexpr (requires { &Functions::server; }) f.server = Functions::server;
    if constexpr (requires { &Functions::defined_by_server; })
      f.defined_by_server = Functions::defined_by_server;
    if constexpr (requires { &Functions::examples; }) f.examples = Functions::examples;
    return f;
  }();
  return form;
}

// What a client of `form` sends: "an HTTP request"; for none, "only its greet call".
std::string sends_phrase(const user_call_form* form);

}  // namespace wirebench
