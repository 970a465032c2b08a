#include "workload_options.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "workload_yaml.hpp"
#include "wirebench/load/request_mix.hpp"
#include "wirebench/protocols/user_call_parsing.hpp"

namespace wirebench::app {
namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& why) { throw std::invalid_argument(why); }

std::string read_file(const std::string& path, const char* flag) {
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(std::string(flag) + " " + path + ": cannot read it: " + std::strerror(errno));
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// What every request of a mix starts from: the user-call flags given beside --request or
// --workload (-H, -d, the expectations, --keyspace).
struct defaults {
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<std::string> body;
  int expect_status = 200;
  std::optional<std::string> expect_body;
  std::optional<std::string> expect_reply;
  std::uint64_t keyspace = 1'000'000;
  // gRPC: where each method is defined (--proto, --import-path), or --reflect.
  std::string proto;
  std::vector<std::string> import_paths;
  bool reflect = false;
};

// The server a mix's HTTP requests go to: every absolute URL must name the same one (a mix
// loads one server); paths go to it, or to --connect.
struct http_target {
  std::optional<http_url> server;
  void take(const http_url& u, const std::string& where) {
    if (!server) {
      server = u;
      return;
    }
    if (u.https != server->https || u.host != server->host || u.port != server->port)
      refuse(where + ": " + (u.https ? "https://" : "http://") + u.authority +
             " is not the mix's server (" + (server->https ? "https://" : "http://") +
             server->authority + "): a mix loads one server");
  }
};

void check_method(const std::string& method, const std::string& where) {
  if (method.empty()) refuse(where + ": no method");
  for (const char c : method)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-' || c == '_'))
      refuse(where + ": method '" + method + "' is not a word (GET, POST, ...)");
}

// An HTTP request's target, a URL or a path, into `h`.
void set_target(http_call& h, const std::string& target, http_target& server, const std::string& where) {
  if (target.starts_with("http://") || target.starts_with("https://")) {
    http_url u;
    try {
      u = parse_http_url(target);
    } catch (const std::exception& e) {
      refuse(where + ": " + e.what());
    }
    server.take(u, where);
    h.target = u.target;
    h.authority = u.authority;
    h.https = u.https;
    return;
  }
  if (!target.starts_with('/')) refuse(where + ": '" + target + "' is neither a URL nor a /path");
  for (const char c : target)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      refuse(where + ": spaces and control characters in a path must be %-escaped");
  h.target = target;
}

http_call http_defaults(const defaults& d) {
  http_call h;
  h.headers = d.headers;
  if (d.body) h.body = *d.body;
  h.method = d.body ? "POST" : "GET";
  h.expect_status = d.expect_status;
  h.expect_body = d.expect_body;
  return h;
}

// "[METHOD] URL-or-PATH" (h2load's -i takes the URL alone).
user_call http_line(const std::string& line, const defaults& d, http_target& server, const std::string& where) {
  std::istringstream words(line);
  std::vector<std::string> w{std::istream_iterator<std::string>(words), std::istream_iterator<std::string>()};
  if (w.empty() || w.size() > 2) refuse(where + ": '" + line + "': give [METHOD] URL or [METHOD] /path");
  http_call h = http_defaults(d);
  if (w.size() == 2) {
    check_method(w[0], where);
    h.method = w[0];
  }
  set_target(h, w.back(), server, where);
  return user_call{std::move(h), d.keyspace};
}

user_call resp_line(const std::string& line, const defaults& d, const std::string& where) {
  resp_call r;
  try {
    r.args = split_command(line);
  } catch (const std::exception& e) {
    refuse(where + ": " + e.what());
  }
  r.expect_reply = d.expect_reply;
  return user_call{std::move(r), d.keyspace};
}

// "METHOD [PARAMS-JSON]": the params a JSON array, [] when left out.
user_call msgpack_line(const std::string& line, const std::string& where, std::uint64_t keyspace) {
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string::npos) refuse(where + ": no method");
  const auto end = line.find_first_of(" \t", start);
  msgpack_call m;
  m.method = line.substr(start, end - start);
  if (end != std::string::npos && line.find_first_not_of(" \t", end) != std::string::npos)
    m.params_json = line.substr(line.find_first_not_of(" \t", end));
  const json params = json::parse(m.params_json, nullptr, false);
  if (params.is_discarded() || !params.is_array())
    refuse(where + ": '" + m.params_json + "': a MessagePack-RPC call's params are a JSON array");
  return user_call{std::move(m), keyspace};
}

// A gRPC request with the flags' defaults: --proto or --reflect, -H as its metadata, -d as its
// message.
grpc_call grpc_defaults(const defaults& d) {
  grpc_call g;
  g.proto_file = d.proto;
  g.reflect = d.reflect;
  g.import_paths = d.import_paths;
  g.metadata = d.headers;
  if (d.body) g.request_json = *d.body;
  return g;
}

void check_grpc_method(const std::string& method, const std::string& where) {
  const auto slash = method.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == method.size() ||
      method.find('/', slash + 1) != std::string::npos)
    refuse(where + ": '" + method + "': give package.Service/Method");
}

// "package.Service/Method [MESSAGE-JSON]": the message an object, or a list of them (one per call
// in turn; a client-streaming method's stream); -d's, or {}, when left out.
user_call grpc_line(const std::string& line, const defaults& d, const std::string& where) {
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string::npos) refuse(where + ": no method");
  const auto end = line.find_first_of(" \t", start);
  grpc_call g = grpc_defaults(d);
  g.method = line.substr(start, end - start);
  check_grpc_method(g.method, where);
  if (end != std::string::npos && line.find_first_not_of(" \t", end) != std::string::npos)
    g.request_json = line.substr(line.find_first_not_of(" \t", end));
  const json message = json::parse(g.request_json, nullptr, false);
  if (message.is_discarded() || !(message.is_object() || message.is_array()))
    refuse(where + ": '" + g.request_json + "': a gRPC request's message is a JSON object (or a list of them)");
  return user_call{std::move(g), d.keyspace};
}

user_call request_line(const std::string& line, user_call_kind kind, const defaults& d,
                       http_target& server, const std::string& where) {
  switch (kind) {
    case user_call_kind::http: return http_line(line, d, server, where);
    case user_call_kind::resp: return resp_line(line, d, where);
    case user_call_kind::msgpack: return msgpack_line(line, where, d.keyspace);
    case user_call_kind::grpc: return grpc_line(line, d, where);
    default: refuse(where + ": " + std::string(kind_name(kind)) + "s are not sent as a mix");
  }
}

// --weights "3,1,1": one whole number >= 1 per request.
std::vector<std::uint32_t> parse_weights(const std::string& text, std::size_t requests) {
  std::vector<std::uint32_t> weights;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    std::uint32_t w = 0;
    std::size_t used = 0;
    try {
      const unsigned long v = std::stoul(item, &used);
      if (v == 0 || v > 1'000'000 || used != item.size()) throw std::out_of_range("weight");
      w = static_cast<std::uint32_t>(v);
    } catch (const std::exception&) {
      refuse("--weights " + text + ": '" + item + "' is not a weight (a whole number from 1 to 1000000)");
    }
    weights.push_back(w);
  }
  if (weights.size() != requests)
    refuse("--weights " + text + ": " + std::to_string(weights.size()) + " weights for " +
           std::to_string(requests) + " requests");
  return weights;
}

// A workload file's fields, per kind: anything else is refused by name (a typo would otherwise
// silently send something else).
const std::set<std::string>& known_fields(user_call_kind kind) {
  static const std::set<std::string> http = {"name", "weight", "method", "url", "path", "headers",
                                             "body", "body_file", "expect_status", "expect_body"};
  static const std::set<std::string> resp = {"name", "weight", "command", "expect_reply"};
  static const std::set<std::string> msgpack = {"name", "weight", "method", "params"};
  static const std::set<std::string> grpc = {"name", "weight", "method", "message", "metadata", "proto"};
  return kind == user_call_kind::http   ? http
         : kind == user_call_kind::resp ? resp
         : kind == user_call_kind::grpc ? grpc
                                        : msgpack;
}

std::string field_list(const std::set<std::string>& fields) {
  std::string list;
  for (const auto& f : fields) list += (list.empty() ? "" : ", ") + f;
  return list;
}

// A field read with its path in the message ("urls.json: requests[2].weight: ...").
class field_reader {
 public:
  field_reader(const json& j, std::string where) : j_(j), where_(std::move(where)) {}
  bool has(const char* key) const { return j_.contains(key); }
  std::string at(const char* key) const { return where_ + "." + key; }
  std::string text(const char* key) const {
    if (!j_[key].is_string()) refuse(at(key) + ": a string, not " + j_[key].type_name());
    return j_[key].get<std::string>();
  }
  std::uint64_t whole(const char* key, std::uint64_t lowest, std::uint64_t highest) const {
    const json& v = j_[key];
    if (!v.is_number_unsigned() || v.get<std::uint64_t>() < lowest || v.get<std::uint64_t>() > highest)
      refuse(at(key) + ": a whole number from " + std::to_string(lowest) + " to " + std::to_string(highest));
    return v.get<std::uint64_t>();
  }
  const json& raw(const char* key) const { return j_[key]; }

 private:
  const json& j_;
  std::string where_;
};

// Header lines (HTTP headers, gRPC metadata) from `key`: an object {"name": "value"} or a list of
// 'name: value', appended to `out` in order.
void read_headers(const field_reader& f, const char* key, std::vector<std::pair<std::string, std::string>>& out) {
  const json& hs = f.raw(key);
  auto add = [&](const std::string& line, const std::string& where) {
    try {
      out.push_back(parse_header(line));
    } catch (const std::exception& e) {
      refuse(where + ": " + e.what());
    }
  };
  if (hs.is_object()) {
    for (const auto& [name, value] : hs.items()) {
      if (!value.is_string()) refuse(f.at(key) + "." + name + ": a string");
      add(name + ": " + value.get<std::string>(), f.at(key) + "." + name);
    }
  } else if (hs.is_array()) {
    for (std::size_t i = 0; i < hs.size(); ++i) {
      const std::string where = f.at(key) + "[" + std::to_string(i) + "]";
      if (!hs[i].is_string()) refuse(where + ": a string 'name: value'");
      add(hs[i].get<std::string>(), where);
    }
  } else {
    refuse(f.at(key) + ": an object {\"name\": \"value\"} or a list of 'name: value'");
  }
}

user_call http_entry(const field_reader& f, const defaults& d, http_target& server) {
  http_call h = http_defaults(d);
  if (f.has("url") == f.has("path")) refuse(f.at("url") + ": give \"url\" or \"path\" (one)");
  if (f.has("body") && f.has("body_file")) refuse(f.at("body") + ": give \"body\" or \"body_file\", not both");
  if (f.has("body")) h.body = f.text("body");
  if (f.has("body_file")) h.body = read_file(f.text("body_file"), f.at("body_file").c_str());
  const bool body = f.has("body") || f.has("body_file") || d.body;
  h.method = body ? "POST" : "GET";
  if (f.has("method")) {
    h.method = f.text("method");
    check_method(h.method, f.at("method"));
  }
  set_target(h, f.text(f.has("url") ? "url" : "path"), server, f.at(f.has("url") ? "url" : "path"));
  if (f.has("headers")) read_headers(f, "headers", h.headers);
  if (f.has("expect_status")) h.expect_status = static_cast<int>(f.whole("expect_status", 100, 999));
  if (f.has("expect_body")) h.expect_body = f.text("expect_body");
  return user_call{std::move(h), d.keyspace};
}

user_call resp_entry(const field_reader& f, const defaults& d) {
  resp_call r;
  if (!f.has("command")) refuse(f.at("command") + ": missing (a RESP request's command)");
  const json& c = f.raw("command");
  if (c.is_string()) {
    try {
      r.args = split_command(c.get<std::string>());
    } catch (const std::exception& e) {
      refuse(f.at("command") + ": " + e.what());
    }
  } else if (c.is_array() && !c.empty()) {
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (!c[i].is_string()) refuse(f.at("command") + "[" + std::to_string(i) + "]: a string");
      r.args.push_back(c[i].get<std::string>());
    }
  } else {
    refuse(f.at("command") + ": a string (split as redis-cli does) or a list of words");
  }
  r.expect_reply = d.expect_reply;
  if (f.has("expect_reply")) r.expect_reply = f.text("expect_reply");
  return user_call{std::move(r), d.keyspace};
}

user_call msgpack_entry(const field_reader& f, const defaults& d) {
  msgpack_call m;
  if (!f.has("method")) refuse(f.at("method") + ": missing (a MessagePack-RPC call's method)");
  m.method = f.text("method");
  if (f.has("params")) {
    if (!f.raw("params").is_array()) refuse(f.at("params") + ": a JSON array");
    m.params_json = f.raw("params").dump();
  }
  return user_call{std::move(m), d.keyspace};
}

user_call grpc_entry(const field_reader& f, const defaults& d) {
  grpc_call g = grpc_defaults(d);
  if (!f.has("method")) refuse(f.at("method") + ": missing (a gRPC request's package.Service/Method)");
  g.method = f.text("method");
  check_grpc_method(g.method, f.at("method"));
  if (f.has("message")) {
    const json& m = f.raw("message");
    if (!m.is_object() && !m.is_array())
      refuse(f.at("message") + ": a JSON object (the request message) or a list of them");
    g.request_json = m.dump();
  }
  if (f.has("metadata")) read_headers(f, "metadata", g.metadata);
  if (f.has("proto")) {
    if (d.reflect) refuse(f.at("proto") + ": --reflect asks the server: give one or the other");
    g.proto_file = f.text("proto");
  }
  if (g.proto_file.empty() && !g.reflect)
    refuse(f.at("proto") + ": missing: give the request's .proto, or --proto or --reflect beside --workload");
  return user_call{std::move(g), d.keyspace};
}

// A workload's section per kind of request: one file for a run of several protocols.
constexpr std::pair<user_call_kind, const char*> section_keys[] = {
    {user_call_kind::http, "http"}, {user_call_kind::resp, "resp"},
    {user_call_kind::grpc, "grpc"}, {user_call_kind::msgpack, "msgpack"}};

const char* section_key(user_call_kind kind) {
  for (const auto& [k, key] : section_keys)
    if (k == kind) return key;
  return "";
}

// `doc` (the file, or one of its sections: `section` is then "resp.") as `kind`'s requests.
std::vector<user_call> parse_entries(const json& doc, const std::string& file, const std::string& section,
                                     user_call_kind kind, const defaults& d, http_target& server) {
  const std::string at = file + ": " + section;
  if (!doc.is_object())
    refuse(file + ": " + (section.empty() ? "a JSON object" : section + " an object") + " {\"requests\": [...]}");
  for (const auto& [key, value] : doc.items())
    if (key != "requests" && key != "keyspace")
      refuse(at + key + ": unknown field (known: keyspace, requests" +
             (section.empty() ? "; or a section per kind of request: http, resp, grpc, msgpack)" : ")"));
  defaults file_defaults = d;
  if (doc.contains("keyspace"))
    file_defaults.keyspace = field_reader(doc, at.substr(0, at.size() - (section.empty() ? 2 : 1)))
                                 .whole("keyspace", 1, 1'000'000'000'000);
  if (!doc.contains("requests") || !doc["requests"].is_array() || doc["requests"].empty())
    refuse(at + "requests: a non-empty list of requests");
  if (kind == user_call_kind::none) refuse(file + ": the protocol sends only its greet call");
  std::vector<user_call> calls;
  const json& list = doc["requests"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = at + "requests[" + std::to_string(i) + "]";
    if (!list[i].is_object()) refuse(where + ": an object");
    for (const auto& [key, value] : list[i].items())
      if (!known_fields(kind).contains(key))
        refuse(where + "." + key + ": unknown field for " + sends_phrase(kind) +
               " (known: " + field_list(known_fields(kind)) + ")");
    const field_reader f(list[i], where);
    user_call call = kind == user_call_kind::http   ? http_entry(f, file_defaults, server)
                     : kind == user_call_kind::resp ? resp_entry(f, file_defaults)
                     : kind == user_call_kind::grpc ? grpc_entry(f, file_defaults)
                                                    : msgpack_entry(f, file_defaults);
    if (f.has("weight")) call.weight = static_cast<std::uint32_t>(f.whole("weight", 1, 1'000'000));
    if (f.has("name")) call.name = f.text("name");
    calls.push_back(std::move(call));
  }
  return calls;
}

}  // namespace

void add_workload_options(CLI::App& cmd, workload_options& o) {
  const char* group = "Request mix";
  cmd.add_option("--request", o.requests,
                 "A request of a mix (repeatable), in the protocol's words: [METHOD] URL-or-/path "
                 "(http1, http2), a command (resp, redis-server), METHOD [PARAMS-JSON] "
                 "(msgpack-rpc), package.Service/Method [MESSAGE-JSON] (grpc, with --proto or "
                 "--reflect); @FILE reads one per line (h2load's -i). -H, -d and the "
                 "expectations apply to each")
      ->group(group)
      ->allow_extra_args(false);
  cmd.add_option("--weights", o.weights,
                 "Each --request's share of the calls, as W1,W2,... (default: all equal)")
      ->group(group);
  cmd.add_option("--workload", o.workload_file,
                 "A JSON or YAML file (.yaml, .yml) listing the requests with their weights and "
                 "expectations (docs/WORKLOADS.md)")
      ->group(group)
      ->check(CLI::ExistingFile);
}

bool workload_given(const CLI::App& cmd) {
  return cmd.get_option("--request")->count() > 0 || cmd.get_option("--workload")->count() > 0;
}

user_call_choice read_workload(const workload_options& o, const user_call_options& user,
                               const CLI::App& cmd, const std::vector<user_call_kind>& kinds) {
  auto given = [&](const char* name) { return cmd.get_option(name)->count() > 0; };
  auto runs = [&](user_call_kind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
  const user_call_kind kind = kinds.front();
  const bool from_flags = given("--request"), from_file = given("--workload");
  if (from_flags && from_file) refuse("give --request or --workload, not both");
  for (const char* flag : {"--url", "--path", "--command", "--call"})
    if (given(flag)) refuse(std::string(flag) + " is one request: give it as a --request of the mix instead");
  if (given("--method")) refuse("--method: give each request's method in its --request (\"POST /x\")");
  if (runs(user_call_kind::none))
    refuse(std::string(from_file ? "--workload" : "--request") +
           ": the protocol sends only its greet call; a mix goes to http1, http2, resp, "
           "redis-server, msgpack-rpc or grpc");
  const bool http = runs(user_call_kind::http), grpc = runs(user_call_kind::grpc);
  for (const char* flag : {"--header", "--data"})
    if (given(flag) && !http && !grpc) refuse(std::string(flag) + " is for HTTP requests (and gRPC's metadata and message)");
  for (const char* flag : {"--expect-status", "--expect-body"})
    if (given(flag) && !http) refuse(std::string(flag) + " is for HTTP requests");
  for (const char* flag : {"--proto", "--import-path", "--reflect"})
    if (given(flag) && !grpc) refuse(std::string(flag) + " is for gRPC requests");
  if (given("--proto") && given("--reflect")) refuse("give --proto or --reflect, not both");
  if (grpc && from_flags && !given("--proto") && !given("--reflect"))
    refuse("--request: give the .proto that defines the methods (--proto), or --reflect");
  if (given("--expect-reply") && !runs(user_call_kind::resp)) refuse("--expect-reply is for RESP commands");
  if (!from_flags && given("--weights")) refuse("--weights go with --request (a workload file gives each request's weight)");

  defaults d;
  for (const auto& line : user.headers) d.headers.push_back(parse_header(line));
  if (given("--data")) d.body = read_data_argument(user.data);
  d.expect_status = user.expect_status;
  if (given("--expect-body")) d.expect_body = user.expect_body;
  if (given("--expect-reply")) d.expect_reply = user.expect_reply;
  d.keyspace = user.keyspace;
  d.proto = user.proto;
  d.import_paths = user.import_paths;
  d.reflect = user.reflect;

  user_call_choice choice;
  http_target server;
  if (from_file) {
    // By its name: .yaml or .yml is YAML, anything else JSON.
    const std::string& name = o.workload_file;
    const bool yaml = name.ends_with(".yaml") || name.ends_with(".yml");
    const std::string text = read_file(name, "--workload");
    const json doc = yaml ? yaml_as_json(text, name) : json::parse(text, nullptr, false);
    if (doc.is_discarded()) refuse("--workload " + name + ": not JSON (a YAML file's name ends in .yaml or .yml)");
    auto is_section = [](const std::string& key) {
      return std::any_of(std::begin(section_keys), std::end(section_keys),
                         [&](const auto& k) { return key == k.second; });
    };
    const bool sections = doc.is_object() && std::any_of(doc.items().begin(), doc.items().end(),
                                                         [&](const auto& item) { return is_section(item.key()); });
    if (sections) {
      for (const auto& [key, value] : doc.items())
        if (!is_section(key))
          refuse(name + ": " + key + ": unknown field beside the sections (known: http, resp, grpc, msgpack)");
      // Each protocol's kind its section; sections no protocol of the run takes are not read.
      for (const user_call_kind k : kinds) {
        if (!doc.contains(section_key(k)))
          refuse(name + ": no '" + section_key(k) + "' section, for the protocols that send " +
                 std::string(kind_name(k)) + "s");
        if (!choice.by_kind.contains(k))
          choice.by_kind[k] =
              parse_entries(doc[section_key(k)], name, std::string(section_key(k)) + ".", k, d, server);
      }
    } else {
      if (std::any_of(kinds.begin(), kinds.end(), [&](user_call_kind k) { return k != kind; }))
        refuse("--workload " + name + ": its requests are read in one protocol's words: give it a "
               "section per kind of request (http, resp, grpc, msgpack), or run protocols that "
               "take the same requests");
      choice.calls = parse_entries(doc, name, "", kind, d, server);
    }
  } else {
    if (std::any_of(kinds.begin(), kinds.end(), [&](user_call_kind k) { return k != kind; }))
      refuse("--request: a mix is read in its protocols' words: run protocols that take the same "
             "requests (http1 and http2; resp and redis-server), or give a --workload file a "
             "section per kind");
    for (const std::string& request : o.requests) {
      if (!request.starts_with('@')) {
        choice.calls.push_back(request_line(request, kind, d, server, "--request '" + request + "'"));
        continue;
      }
      const std::string path = request.substr(1);
      std::istringstream lines(read_file(path, "--request @"));
      std::size_t number = 0, before = choice.calls.size();
      for (std::string line; std::getline(lines, line);) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;  // blank, or a comment
        choice.calls.push_back(
            request_line(line, kind, d, server, "--request " + request + ":" + std::to_string(number)));
      }
      if (choice.calls.size() == before) refuse("--request " + request + ": no request in it");
    }
    if (given("--weights")) {
      const auto weights = parse_weights(o.weights, choice.calls.size());
      for (std::size_t i = 0; i < weights.size(); ++i) choice.calls[i].weight = weights[i];
    }
  }
  // Each list as the drivers will take it: at most max_mix_requests, weights that make a cycle.
  auto check = [&](const std::vector<user_call>& calls) {
    if (calls.size() > max_mix_requests)
      refuse(std::to_string(calls.size()) + " requests: a mix has at most " +
             std::to_string(max_mix_requests) + " (each keeps histograms of its own)");
    std::vector<std::uint32_t> weights;
    for (const user_call& call : calls) weights.push_back(call.weight);
    try {
      (void)request_mix(weights);
    } catch (const std::invalid_argument& e) {
      refuse(std::string(from_file ? "--workload " + o.workload_file : "--weights " + o.weights) + ": " + e.what());
    }
  };
  if (choice.by_kind.empty()) check(choice.calls);
  for (const auto& [k, calls] : choice.by_kind) check(calls);
  choice.url = server.server;
  return choice;
}

}  // namespace wirebench::app
