#include "user_call_options.hpp"

#include <stdexcept>

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>

#include "number_checks.hpp"
#include "wirebench/protocols/user_call_parsing.hpp"

namespace wirebench::app {
namespace {

std::optional<endpoint> tcp_endpoint(const std::string& host, std::uint16_t port) {
  const bool v6 = host.find(':') != std::string::npos;
  return endpoint::parse("tcp://" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port));
}

}  // namespace

std::optional<endpoint> url_endpoint(const http_url& url, std::string& problem) {
  if (auto literal = tcp_endpoint(url.host, url.port)) return literal;  // an IP, or localhost
  asio::io_context io;
  asio::ip::tcp::resolver resolver(io);
  asio::error_code ec;
  const auto found = resolver.resolve(url.host, std::to_string(url.port), ec);
  if (ec || found.empty()) {
    problem = "--url host '" + url.host + "' does not resolve (" +
              (ec ? ec.message() : std::string("no address")) +
              "): give the server's address with --connect (the URL's host stays the Host header)";
    return std::nullopt;
  }
  return tcp_endpoint(found.begin()->endpoint().address().to_string(), url.port);
}

void add_user_call_options(CLI::App& cmd, user_call_options& o) {
  // An option with its help, listed under its user call's heading in --help.
  const auto option = [&cmd](const char* group, const char* flags, auto& value,
                             const std::string& help) {
    return cmd.add_option(flags, value, help)->group(group);
  };
  const char* http = "User call (http1, http2)";
  option(http, "--url", o.url,
         "Send this request instead of the greet call: http://host:port/path?query "
         "(its host:port, a name resolved, is dialed unless --connect is given)");
  option(http, "--path", o.path,
         "The same with a path only: /path?query, on the --connect server (or the one run starts)");
  option(http, "-X,--method", o.method,
         "Request method (default GET, or POST with -d); without --url or --path, a "
         "MessagePack-RPC method (msgpack-rpc), -d its params as a JSON array");
  // One value per -H (a word after it is not another header: `call` takes names there).
  option(http, "-H,--header", o.headers, "Request header 'name: value' (repeatable); with --call, gRPC metadata")
      ->allow_extra_args(false);
  option(http, "-d,--data", o.data,
         "Request body, or @FILE for a file's bytes (sent with Content-Length)");
  option(http, "--expect-status", o.expect_status, "The status of a successful call")
      ->check(from_to(100, 999))
      ->capture_default_str();
  option(http, "--expect-body", o.expect_body, "A successful call's whole body, byte for byte");
  const char* resp = "User call (resp, redis-server)";
  option(resp, "--command", o.command,
         "Send this command instead of the greet call, words split as redis-cli does "
         "(\"double quoted\" words may hold blanks and \\n, \\xHH escapes)");
  option(resp, "--expect-reply", o.expect_reply,
         "A successful call's reply (a string's text or an integer's digits); without it "
         "any reply but an error succeeds");
  const char* grpc = "User call (grpc)";
  option(grpc, "--call", o.grpc_method,
         "Call this method instead of the greet call: package.Service/Method, defined in "
         "--proto; -d is its request in JSON (a streaming method: a stream per call). -d as "
         "a JSON array: a client stream's messages, or for other methods one per call, in turn");
  option(grpc, "--proto", o.proto, "The .proto file that defines --call's method")
      ->check(CLI::ExistingFile);
  cmd.add_flag("--reflect", o.reflect,
               "Instead of --proto: ask the server what --call's method is (gRPC server reflection)")
      ->group(grpc);
  option(grpc, "--import-path", o.import_paths,
         "Where the .proto's imports are found (repeatable; default: its own folder)")
      ->allow_extra_args(false);
  option("User call", "--keyspace", o.keyspace,
         "__rand_int__ in a user call becomes a 12-digit number in [0, N), new per call")
      ->check(from_to(1, 1'000'000'000'000))
      ->capture_default_str();
}

user_call_choice read_user_call(const user_call_options& o, const CLI::App& cmd) {
  auto given = [&](const char* name) { return cmd.get_option(name)->count() > 0; };
  const bool http_target = given("--url") || given("--path");
  const char* http_flags[] = {"--method", "--header", "--data", "--expect-status", "--expect-body"};
  const char* resp_flags[] = {"--expect-reply"};
  const char* grpc_flags[] = {"--proto", "--import-path", "--reflect"};
  user_call_choice choice;
  if (given("--call")) {
    if (http_target || given("--command"))
      throw std::invalid_argument("--call is a gRPC method; give it, --url/--path or --command");
    for (const char* flag : {"--method", "--expect-status", "--expect-body", "--expect-reply"})
      if (given(flag)) throw std::invalid_argument(std::string(flag) + " is not part of a gRPC call");
    if (given("--proto") == given("--reflect"))
      throw std::invalid_argument("--call " + o.grpc_method +
                                  ": give the .proto that defines it (--proto), or --reflect");
    grpc_call g;
    g.method = o.grpc_method;
    g.proto_file = o.proto;
    g.reflect = o.reflect;
    g.import_paths = o.import_paths;
    if (given("--data")) g.request_json = read_data_argument(o.data);
    for (const auto& line : o.headers) g.metadata.push_back(parse_header(line));  // its metadata
    choice.calls.push_back(user_call{std::move(g), o.keyspace});
    return choice;
  }
  for (const char* flag : grpc_flags)
    if (given(flag)) throw std::invalid_argument(std::string(flag) + " goes with --call");
  // --method without an HTTP target or a command: a MessagePack-RPC method (-X stays HTTP's).
  if (given("--method") && !http_target && !given("--command")) {
    for (const char* flag : {"--header", "--expect-status", "--expect-body", "--expect-reply"})
      if (given(flag))
        throw std::invalid_argument(std::string(flag) + " is part of an HTTP request: give its "
                                    "--url or --path too (--method alone is a MessagePack-RPC method)");
    msgpack_call m;
    m.method = o.method;
    if (given("--data")) m.params_json = read_data_argument(o.data);
    choice.calls.push_back(user_call{std::move(m), o.keyspace});
    return choice;
  }
  if (given("--command")) {
    if (http_target) throw std::invalid_argument("--command is a RESP command; --url/--path an HTTP request: give one");
    for (const char* flag : http_flags)
      if (given(flag)) throw std::invalid_argument(std::string(flag) + " is for an HTTP request, not --command");
    resp_call r;
    r.args = split_command(o.command);
    if (given("--expect-reply")) r.expect_reply = o.expect_reply;
    choice.calls.push_back(user_call{std::move(r), o.keyspace});
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
    choice.url = u;
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
  choice.calls.push_back(user_call{std::move(h), o.keyspace});
  return choice;
}

}  // namespace wirebench::app
