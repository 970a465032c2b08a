// The MessagePack-RPC family's user-call form (user_call_form.hpp): -X METHOD without a URL, -d
// its params; "METHOD [PARAMS-JSON]" lines; workload entries; results.
#include <stdexcept>

#include "msgpack_call.hpp"
#include "wirebench/protocols/peer_text.hpp"
#include "wirebench/protocols/user_call_form.hpp"
#include "wirebench/protocols/user_call_parsing.hpp"

namespace wirebench {
// Its functions and data, as the_form takes them; a struct, not an anonymous namespace: a unity
// build compiles several forms as one file.
struct msgpack_form {

using json = nlohmann::json;

[[noreturn]] static void refuse(const std::string& why) { throw std::invalid_argument(why); }

static void check_params(const std::string& params, const std::string& where) {
  const json p = json::parse(params, nullptr, false);
  if (p.is_discarded() || !p.is_array())
    refuse(where + ": '" + peer_text(params, 80) + "': a MessagePack-RPC call's params are a JSON array");
}

static user_request from_flags(const given_flags& g) {
  msgpack_call m;
  m.method = g.last("--method");
  if (g.has("--data")) m.params_json = read_data_argument(g.last("--data"));
  return m;
}

// "METHOD [PARAMS-JSON]": the params a JSON array, [] when left out.
static user_request from_line(std::string_view line, const given_flags&, const std::string& where) {
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) refuse(where + ": no method");
  const auto end = line.find_first_of(" \t", start);
  msgpack_call m;
  m.method = std::string(line.substr(start, end - start));
  if (end != std::string_view::npos && line.find_first_not_of(" \t", end) != std::string_view::npos)
    m.params_json = std::string(line.substr(line.find_first_not_of(" \t", end)));
  check_params(m.params_json, where);
  return m;
}

static user_request from_entry(const json_fields& f, const given_flags&) {
  msgpack_call m;
  if (!f.has("method")) refuse(f.at("method") + ": missing (a MessagePack-RPC call's method)");
  m.method = f.text("method");
  if (f.has("params")) {
    if (!f.raw("params").is_array()) refuse(f.at("params") + ": a JSON array");
    m.params_json = f.raw("params").dump();
  }
  return m;
}

static std::string text(const user_request& r) {
  const msgpack_call& m = *r.as<msgpack_call>();
  return m.method + " " + m.params_json;
}

static std::vector<request_field> fields(user_request& r) {
  return {{&r.as<msgpack_call>()->params_json, request_field_kind::json}};
}

static json to_results(const user_request& r) {
  const msgpack_call& m = *r.as<msgpack_call>();
  return {{"method", m.method}, {"params_json", m.params_json}};
}

static user_request from_results(const json_fields& f) {
  msgpack_call m;
  m.method = f.text("method");
  m.params_json = f.text("params_json");
  return m;
}

static std::vector<std::string> examples(const std::string& /*proto_file*/) {
  return std::vector<std::string>{R"({"method": "greet", "params": ["k:__rand_int__"]})",
                                  R"({"method": "sum", "params": [1, 2.5, {"a": [true, null]}]})"};
}

static user_call_form make_form() {
  return {.name = "msgpack", .what = "MessagePack-RPC call", .article = "a",
          .asked_with = "--method without --url or --path", .rank = 40,
          .heading = "User call (msgpack-rpc)",
          .flags = {
              // HTTP's -X; alone, it asks for this call: a call is only HTTP's with its --url or --path.
              {.names = "-X,--method",
               .help = "without --url or --path, a MessagePack-RPC method (msgpack-rpc), -d its params "
                       "as a JSON array",
               .owned = false,
               .asks = true},
              {.names = "-d,--data", .help = "", .owned = false},
          },
          .line_help = "METHOD [PARAMS-JSON] (msgpack-rpc)",
          .entry_fields = {"method", "params"}};
}

};

const user_call_form& form_of(const msgpack_call*) { return the_form<msgpack_form>(); }

}  // namespace wirebench
