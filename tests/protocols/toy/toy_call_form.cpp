// The toy protocol's user-call form (user_call_form.hpp), from this folder alone: how a netstring
// call is given on the command line, in a mix, in a workload file and in results.
#include <stdexcept>

#include "toy_call.hpp"
#include "wirebench/protocols/user_call_form.hpp"

namespace wirebench::test {

// Its functions, as the_form (user_call_form.hpp) takes them.
struct toy_form {
  static netstring_call with_defaults(const given_flags& d) {
    netstring_call n;
    if (d.has("--expect-netstring")) n.expect_reply = d.last("--expect-netstring");
    return n;
  }
  static user_request from_line(std::string_view line, const given_flags& d, const std::string& where) {
    if (line.empty()) throw std::invalid_argument(where + ": an empty payload");
    netstring_call n = with_defaults(d);
    n.payload = std::string(line);
    return n;
  }
  // --netstring is one request's line.
  static user_request from_flags(const given_flags& g) { return from_line(g.last("--netstring"), g, "--netstring"); }
  static user_request from_entry(const json_fields& e, const given_flags& d) {
    netstring_call n = with_defaults(d);
    n.payload = e.text("payload");
    if (e.has("expect_reply")) n.expect_reply = e.text("expect_reply");
    return n;
  }
  static std::string text(const user_request& r) {
    const netstring_call& n = *r.as<netstring_call>();
    return n.payload + (n.expect_reply ? " expecting '" + *n.expect_reply + "'" : std::string());
  }
  static std::vector<request_field> fields(user_request& r) {
    netstring_call& n = *r.as<netstring_call>();
    std::vector<request_field> out{{&n.payload, request_field_kind::text}};
    if (n.expect_reply) out.push_back({&*n.expect_reply, request_field_kind::text, false});
    return out;
  }
  static nlohmann::json to_results(const user_request& r) {
    const netstring_call& n = *r.as<netstring_call>();
    return {{"payload", n.payload},
            {"expect_reply", n.expect_reply ? nlohmann::json(*n.expect_reply) : nlohmann::json()}};
  }
  static user_request from_results(const json_fields& e) {
    netstring_call n{e.text("payload")};
    if (e.has_value("expect_reply")) n.expect_reply = e.text("expect_reply");
    return n;
  }
  static std::vector<std::string> examples(const std::string& /*proto_file*/) {
    return {R"({"payload": "k:__rand_int__"})", R"({"payload": "__pick(a|b)__", "expect_reply": "hello, a"})"};
  }
  // Its name, words and flags.
  static user_call_form make_form() {
    return {.name = "netstring", .what = "netstring", .article = "a", .asked_with = "--netstring", .rank = 1000,
            .heading = "User call (toy-netstring)",
            .flags = {{.names = "--netstring", .help = "Send this payload instead of the greet call", .asks = true},
                      {.names = "--expect-netstring", .help = "A successful call's whole reply", .in_mix = true}},
            .line_help = "a payload (toy-netstring)",
            .entry_fields = {"payload", "expect_reply"}};
  }
};

const user_call_form& form_of(const netstring_call*) { return the_form<toy_form>(); }

}  // namespace wirebench::test
