// The gRPC family's user-call form (user_call_form.hpp): ghz's --call with --proto (or --reflect),
// -d its message in JSON, -H its metadata; "package.Service/Method [MESSAGE-JSON]" lines;
// workload entries; results.
#include <stdexcept>

#include "grpc_call.hpp"
#include "wirebench/protocols/peer_text.hpp"
#include "wirebench/protocols/user_call_form.hpp"
#include "wirebench/protocols/user_call_parsing.hpp"

namespace wirebench {
// Its functions and data, as the_form takes them; a struct, not an anonymous namespace: a unity
// build compiles several forms as one file.
struct grpc_form {

using json = nlohmann::json;

[[noreturn]] static void refuse(const std::string& why) { throw std::invalid_argument(why); }

// A gRPC request with the flags' defaults: --proto or --reflect, -H as its metadata, -d as its
// message.
static grpc_call with_defaults(const given_flags& d) {
  if (d.has("--proto") && d.has("--reflect")) refuse("give --proto or --reflect, not both");
  grpc_call g;
  g.proto_file = d.last("--proto");
  g.reflect = d.has("--reflect");
  g.import_paths = d.all("--import-path");
  for (const auto& line : d.all("--header")) g.metadata.push_back(parse_header(line));
  if (d.has("--data")) g.request_json = read_data_argument(d.last("--data"));
  return g;
}

static void check_method(const std::string& method, const std::string& where) {
  const auto slash = method.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == method.size() ||
      method.find('/', slash + 1) != std::string::npos)
    refuse(where + ": '" + method + "': give package.Service/Method");
}

static user_request from_flags(const given_flags& g) {
  const std::string method = g.last("--call");
  if (g.has("--proto") == g.has("--reflect"))
    refuse("--call " + method + ": give the .proto that defines it (--proto), or --reflect");
  grpc_call call = with_defaults(g);
  call.method = method;
  return call;
}

// "package.Service/Method [MESSAGE-JSON]": the message an object, or a list of them (one per call
// in turn; a client-streaming method's stream); -d's, or {}, when left out.
static user_request from_line(std::string_view line, const given_flags& d, const std::string& where) {
  if (!d.has("--proto") && !d.has("--reflect"))
    refuse("--request: give the .proto that defines the methods (--proto), or --reflect");
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) refuse(where + ": no method");
  const auto end = line.find_first_of(" \t", start);
  grpc_call g = with_defaults(d);
  g.method = std::string(line.substr(start, end - start));
  check_method(g.method, where);
  if (end != std::string_view::npos && line.find_first_not_of(" \t", end) != std::string_view::npos)
    g.request_json = std::string(line.substr(line.find_first_not_of(" \t", end)));
  const json message = json::parse(g.request_json, nullptr, false);
  if (message.is_discarded() || !(message.is_object() || message.is_array()))
    refuse(where + ": '" + peer_text(g.request_json, 80) + "': a gRPC request's message is a JSON object (or a list of them)");
  return g;
}

static user_request from_entry(const json_fields& f, const given_flags& d) {
  grpc_call g = with_defaults(d);
  if (!f.has("method")) refuse(f.at("method") + ": missing (a gRPC request's package.Service/Method)");
  g.method = f.text("method");
  check_method(g.method, f.at("method"));
  if (f.has("message")) {
    const json& m = f.raw("message");
    if (!m.is_object() && !m.is_array())
      refuse(f.at("message") + ": a JSON object (the request message) or a list of them");
    g.request_json = m.dump();
  }
  if (f.has("metadata")) {
    const auto more = f.headers("metadata");
    g.metadata.insert(g.metadata.end(), more.begin(), more.end());
  }
  if (f.has("proto")) {
    if (g.reflect) refuse(f.at("proto") + ": --reflect asks the server: give one or the other");
    g.proto_file = f.text("proto");
  }
  if (g.proto_file.empty() && !g.reflect)
    refuse(f.at("proto") + ": missing: give the request's .proto, or --proto or --reflect beside --workload");
  return g;
}

static std::string text(const user_request& r) {
  const grpc_call& g = *r.as<grpc_call>();
  return g.method + " " + g.request_json + " (" + (g.reflect ? "by reflection" : g.proto_file) + ")";
}

static std::vector<request_field> fields(user_request& r) {
  grpc_call& g = *r.as<grpc_call>();
  std::vector<request_field> out{{&g.request_json, request_field_kind::json}};
  for (auto& entry : g.metadata) out.push_back({&entry.second, request_field_kind::header_value, false});
  return out;
}

static json to_results(const user_request& r) {
  const grpc_call& g = *r.as<grpc_call>();
  return {{"method", g.method},
          {"proto_file", g.proto_file},
          {"reflect", g.reflect},
          {"import_paths", g.import_paths},
          {"request_json", g.request_json},
          {"metadata", g.metadata}};
}

static bool defined_by_server(const user_request& r) { return r.as<grpc_call>()->reflect; }

// Files written before the metadata was recorded have none.
static user_request from_results(const json_fields& f) {
  return grpc_call{.method = f.text("method"),
                   .proto_file = f.text("proto_file"),
                   .reflect = f.flag("reflect"),
                   .import_paths = f.texts("import_paths"),
                   .request_json = f.text("request_json"),
                   .metadata = f.has_value("metadata") ? f.headers("metadata")
                                                       : std::vector<std::pair<std::string, std::string>>{}};
}

using flag = user_call_flag;

static std::vector<std::string> examples(const std::string& proto) {
  const json p = proto;
  return std::vector<std::string>{
      R"({"method": "wirebench.echo.Echo/Get", "message": {"text": "a b"}, "proto": )" + p.dump() + "}",
      R"({"method": "wirebench.echo.Echo/Expand", "message": {"text": "a b"}, "metadata": {"x-run": "r"}, "proto": )" +
          p.dump() + "}"};
}

static user_call_form make_form() {
  return {.name = "grpc", .what = "gRPC call", .article = "a", .asked_with = "--call", .rank = 30,
          .heading = "User call (grpc)",
          .flags = {
              {.names = "--call",
               .help = "Call this method instead of the greet call: package.Service/Method, defined in "
                       "--proto; -d is its request in JSON (a streaming method: a stream per call). -d as "
                       "a JSON array: a client stream's messages, or for other methods one per call, in turn",
               .asks = true},
              {.names = "--proto", .help = "The .proto file that defines --call's method", .in_mix = true,
               .existing_file = true},
              {.names = "--reflect",
               .help = "Instead of --proto: ask the server what --call's method is (gRPC server reflection)",
               .takes = flag::arity::none,
               .in_mix = true},
              {.names = "--import-path",
               .help = "Where the .proto's imports are found (repeatable; default: its own folder)",
               .takes = flag::arity::repeated,
               .in_mix = true},
              {.names = "-H,--header", .help = "with --call, gRPC metadata", .takes = flag::arity::repeated,
               .owned = false, .in_mix = true},
              {.names = "-d,--data", .help = "", .owned = false, .in_mix = true},
          },
          .line_help = "package.Service/Method [MESSAGE-JSON] (grpc, with --proto or --reflect)",
          .entry_fields = {"method", "message", "metadata", "proto"}};
}

};

const user_call_form& form_of(const grpc_call*) { return the_form<grpc_form>(); }

}  // namespace wirebench
