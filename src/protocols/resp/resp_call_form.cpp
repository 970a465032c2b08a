// The RESP family's user-call form (user_call_form.hpp): --command as redis-cli splits it,
// --expect-reply; a command per line of a mix; workload entries; results.
#include <algorithm>
#include <stdexcept>

#include "resp_call.hpp"
#include "resp_reply_reader.hpp"
#include "resp_request_parser.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/user_call_form.hpp"

namespace wirebench {

// The RESP server's own splitter (Redis's sdssplitargs, which redis-cli uses too): a command
// given here is split exactly as our server splits an inline command.
std::vector<std::string> split_command(std::string_view line) {
  std::string storage;
  std::vector<std::size_t> ends;
  if (!resp::split_inline_args(line, storage, ends))
    throw setting_error("command", "'" + std::string(line) + "': unbalanced quotes (or a closing quote not "
                                   "followed by a blank)");
  if (ends.empty()) throw setting_error("command", "'" + std::string(line) + "': no command");
  std::vector<std::string> args;
  std::size_t from = 0;
  for (const std::size_t to : ends) {
    args.emplace_back(storage, from, to - from);
    from = to;
  }
  return args;
}

// Its functions and data, as the_form takes them; a struct, not an anonymous namespace: a unity
// build compiles several forms as one file.
struct resp_form {

[[noreturn]] static void refuse(const std::string& why) { throw std::invalid_argument(why); }

static resp_call with_defaults(const given_flags& d) {
  resp_call r;
  if (d.has("--expect-reply")) r.expect_reply = d.last("--expect-reply");
  return r;
}

static user_request from_flags(const given_flags& g) {
  resp_call r = with_defaults(g);
  r.args = split_command(g.last("--command"));
  return r;
}

static user_request from_line(std::string_view line, const given_flags& d, const std::string& where) {
  resp_call r = with_defaults(d);
  try {
    r.args = split_command(line);
  } catch (const std::exception& e) {
    refuse(where + ": " + e.what());
  }
  return r;
}

static user_request from_entry(const json_fields& f, const given_flags& d) {
  resp_call r = with_defaults(d);
  if (!f.has("command")) refuse(f.at("command") + ": missing (a RESP request's command)");
  const nlohmann::json& c = f.raw("command");
  if (c.is_string()) {
    try {
      r.args = split_command(c.get<std::string>());
    } catch (const std::exception& e) {
      refuse(f.at("command") + ": " + e.what());
    }
  } else if (c.is_array() && !c.empty()) {
    r.args = f.texts("command");
  } else {
    refuse(f.at("command") + ": a string (split as redis-cli does) or a list of words");
  }
  if (f.has("expect_reply")) r.expect_reply = f.text("expect_reply");
  return r;
}

static std::string text(const user_request& request) {
  const resp_call& r = *request.as<resp_call>();
  std::string text;
  for (const auto& arg : r.args) {
    if (!text.empty()) text += ' ';
    // Quoted, as redis-cli quotes (and reads back), where a blank, a quote or a byte that does
    // not print would otherwise make it read as something else.
    const bool quote = arg.empty() || arg.find_first_of(" \t\r\n\"'\\") != std::string::npos ||
                       std::any_of(arg.begin(), arg.end(), [](char c) {
                         return static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f;
                       });
    if (quote) resp::append_redis_cli_quoted(text, arg);
    else text += arg;
  }
  if (r.expect_reply) text += " expecting '" + *r.expect_reply + "'";
  return text;
}

static std::vector<request_field> fields(user_request& request) {
  resp_call& r = *request.as<resp_call>();
  std::vector<request_field> out;
  for (std::string& arg : r.args) out.push_back({&arg, request_field_kind::text});
  if (r.expect_reply) out.push_back({&*r.expect_reply, request_field_kind::text, false});
  return out;
}

static nlohmann::json to_results(const user_request& request) {
  const resp_call& r = *request.as<resp_call>();
  return {{"args", r.args},
          {"expect_reply", r.expect_reply ? nlohmann::json(*r.expect_reply) : nlohmann::json(nullptr)}};
}

static user_request from_results(const json_fields& f) {
  resp_call r;
  r.args = f.texts("args");
  if (f.has_value("expect_reply")) r.expect_reply = f.text("expect_reply");
  return r;
}

static std::vector<std::string> examples(const std::string& /*proto_file*/) {
  return std::vector<std::string>{R"({"command": "GET k:__rand_int__", "expect_reply": "v"})"};
}

static user_call_form make_form() {
  return {.name = "resp", .what = "RESP command", .article = "a", .asked_with = "--command", .rank = 20,
          .heading = "User call (resp, redis-server)",
          .flags = {
              {.names = "--command",
               .help = "Send this command instead of the greet call, words split as redis-cli does "
                       "(\"double quoted\" words may hold blanks and \\n, \\xHH escapes)",
               .asks = true},
              {.names = "--expect-reply",
               .help = "A successful call's reply (a string's text or an integer's digits); without it "
                       "any reply but an error succeeds",
               .in_mix = true},
          },
          .line_help = "a command (resp, redis-server)",
          .entry_fields = {"command", "expect_reply"}};
}

};

const user_call_form& form_of(const resp_call*) { return the_form<resp_form>(); }

}  // namespace wirebench
