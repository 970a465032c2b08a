#include "user_call_options.hpp"

#include <stdexcept>

#include "wirebench/protocols/user_call_parsing.hpp"

namespace wirebench::app {
namespace {

// Where an http:// URL's host:port is, to dial it: an IP literal, or localhost. Names are not
// resolved (endpoints are numeric): the problem is kept for when no --connect says where to go.
void set_url_endpoint(const http_url& u, user_call_choice& choice) {
  const std::string host = u.host == "localhost" ? "127.0.0.1" : u.host;
  const bool v6 = host.find(':') != std::string::npos;
  std::string why;
  auto where = endpoint::parse("tcp://" + (v6 ? "[" + host + "]" : host) + ":" +
                                   std::to_string(u.port), &why);
  if (where) choice.url_endpoint = *where;
  else choice.url_problem = "--url host '" + u.host + "' is not a numeric IP: give the server's " +
                            "address with --connect (the URL's host stays the Host header)";
}

}  // namespace

void add_user_call_options(CLI::App& cmd, user_call_options& o) {
  const char* http = "User call (http1, http2)";
  const char* resp = "User call (resp, redis-server)";
  cmd.add_option("--url", o.url,
                 "Send this request instead of the greet call: http://host:port/path?query "
                 "(its host:port is dialed unless --connect is given)")
      ->group(http);
  cmd.add_option("--path", o.path, "The same with a path only: /path?query, on the --connect server (or the one run starts)")
      ->group(http);
  cmd.add_option("-X,--method", o.method, "Request method (default GET, or POST with -d)")->group(http);
  // One value per -H (a word after it is not another header: `call` takes names there).
  cmd.add_option("-H,--header", o.headers, "Request header 'name: value' (repeatable)")
      ->allow_extra_args(false)
      ->group(http);
  cmd.add_option("-d,--data", o.data, "Request body, or @FILE for a file's bytes (sent with "
                 "Content-Length)")->group(http);
  cmd.add_option("--expect-status", o.expect_status, "The status of a successful call")
      ->check(CLI::Range(100, 999))
      ->capture_default_str()
      ->group(http);
  cmd.add_option("--expect-body", o.expect_body, "A successful call's whole body, byte for byte")
      ->group(http);
  cmd.add_option("--command", o.command,
                 "Send this command instead of the greet call, words split as redis-cli does "
                 "(\"double quoted\" words may hold blanks and \\n, \\xHH escapes)")
      ->group(resp);
  cmd.add_option("--expect-reply", o.expect_reply,
                 "A successful call's reply (a string's text or an integer's digits); without it "
                 "any reply but an error succeeds")
      ->group(resp);
  cmd.add_option("--keyspace", o.keyspace,
                 "__rand_int__ in a user call becomes a 12-digit number in [0, N), new per call")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1'000'000'000'000}))
      ->capture_default_str()
      ->group("User call");
}

user_call_choice read_user_call(const user_call_options& o, const CLI::App& cmd) {
  auto given = [&](const char* name) { return cmd.get_option(name)->count() > 0; };
  const bool http_target = given("--url") || given("--path");
  const char* http_flags[] = {"--method", "--header", "--data", "--expect-status", "--expect-body"};
  const char* resp_flags[] = {"--expect-reply"};
  user_call_choice choice;
  if (given("--command")) {
    if (http_target) throw std::invalid_argument("--command is a RESP command; --url/--path an HTTP request: give one");
    for (const char* flag : http_flags)
      if (given(flag)) throw std::invalid_argument(std::string(flag) + " is for an HTTP request, not --command");
    resp_call r;
    r.args = split_command(o.command);
    if (given("--expect-reply")) r.expect_reply = o.expect_reply;
    choice.call = user_call{std::move(r), o.keyspace};
    return choice;
  }
  for (const char* flag : resp_flags)
    if (given(flag)) throw std::invalid_argument(std::string(flag) + " goes with --command");
  if (!http_target) {
    for (const char* flag : http_flags)
      if (given(flag))
        throw std::invalid_argument(std::string(flag) + " is part of an HTTP request: give its "
                                    "--url or --path too");
    if (given("--keyspace")) throw std::invalid_argument("--keyspace goes with a user call (--url, --path or --command)");
    return choice;
  }
  if (given("--url") && given("--path")) throw std::invalid_argument("give --url or --path, not both");
  http_call h;
  if (given("--url")) {
    const http_url u = parse_http_url(o.url);
    h.target = u.target;
    h.authority = u.authority;
    h.https = u.https;
    set_url_endpoint(u, choice);
  } else {
    if (!o.path.starts_with('/')) throw std::invalid_argument("--path " + o.path + ": a path starts with /");
    for (const char c : o.path)
      if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
        throw std::invalid_argument("--path: spaces and control characters must be %-escaped");
    h.target = o.path;
  }
  for (const auto& line : o.headers) h.headers.push_back(parse_header(line));
  if (given("--data")) h.body = read_data_argument(o.data);
  h.method = !o.method.empty() ? o.method : given("--data") ? "POST" : "GET";
  for (const char c : h.method)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-' || c == '_'))
      throw std::invalid_argument("-X " + h.method + ": a method is a word (GET, POST, ...)");
  h.expect_status = o.expect_status;
  if (given("--expect-body")) h.expect_body = o.expect_body;
  choice.call = user_call{std::move(h), o.keyspace};
  return choice;
}

}  // namespace wirebench::app
