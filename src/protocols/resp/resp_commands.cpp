#include "resp_commands.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <charconv>
#include <cstring>

namespace wirebench::resp {
namespace {

bool is(std::string_view name, std::string_view upper) {
  return name.size() == upper.size() &&
         std::equal(name.begin(), name.end(), upper.begin(), [](char a, char b) {
           return (a >= 'a' && a <= 'z' ? static_cast<char>(a - 32) : a) == b;
         });
}

void wrong_arity(std::string& out, std::string_view lower_name) {
  out.append("-ERR wrong number of arguments for '").append(lower_name).append("' command\r\n");
}

// Redis 7: "unknown command 'NAME', with args beginning with: 'a' 'b' ", the name cut at 128
// bytes, the arguments while their text is under 128 bytes (each cut to what is left), and CR/LF
// turned into spaces so that the error stays one line.
void unknown_command(std::string& out, std::span<const std::string_view> args) {
  std::string message = "ERR unknown command '";
  message.append(args[0].substr(0, 128)).append("', with args beginning with: ");
  std::string listed;
  for (std::size_t i = 1; i < args.size() && listed.size() < 128; ++i) {
    const std::size_t budget = 128 - listed.size();  // measured before the opening quote
    listed.append("'").append(args[i].substr(0, budget)).append("' ");
  }
  message += listed;
  std::replace(message.begin(), message.end(), '\r', ' ');
  std::replace(message.begin(), message.end(), '\n', ' ');
  append_error(out, message);
}

void append_integer(std::string& out, std::uint64_t value) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), value);
  out.push_back(':');
  out.append(digits, end).append("\r\n");
}

// A map of `pairs` entries: RESP3's map, or RESP2's flat array of keys and values.
void append_map_header(std::string& out, int protocol, std::size_t pairs) {
  out.push_back(protocol == 3 ? '%' : '*');
  out.append(std::to_string(protocol == 3 ? pairs : 2 * pairs)).append("\r\n");
}

void append_null(std::string& out, int protocol) { out.append(protocol == 3 ? "_\r\n" : "$-1\r\n"); }

// Redis refuses a client name with spaces, newlines or other special characters.
bool valid_client_name(std::string_view name) {
  return std::all_of(name.begin(), name.end(), [](char c) { return c > ' ' && c <= '~'; });
}

// HELLO [protover [AUTH username password] [SETNAME clientname]] (Redis 7's replies and texts).
void hello(std::span<const std::string_view> args, client_state& client, std::string& out) {
  int protocol = client.protocol;
  std::size_t i = 1;
  if (args.size() > 1) {
    long long asked = 0;
    const auto [end, ec] = std::from_chars(args[1].data(), args[1].data() + args[1].size(), asked);
    if (ec != std::errc{} || end != args[1].data() + args[1].size())
      return append_error(out, "ERR Protocol version is not an integer or out of range");
    if (asked != 2 && asked != 3) return append_error(out, "NOPROTO unsupported protocol version");
    protocol = static_cast<int>(asked);
    i = 2;
  }
  std::string_view new_name;
  bool naming = false;
  for (; i < args.size(); ++i) {
    const bool more = i + 1 < args.size();
    if (is(args[i], "AUTH") && i + 2 < args.size()) {
      // No users and no passwords here: Redis's default user without a password takes any.
      if (args[i + 1] != "default")
        return append_error(out, "WRONGPASS invalid username-password pair or user is disabled.");
      i += 2;
    } else if (is(args[i], "SETNAME") && more) {
      new_name = args[++i];
      naming = true;
      if (!valid_client_name(new_name))
        return append_error(out,
                            "ERR Client names cannot contain spaces, newlines or special characters.");
    } else {
      return append_error(out, "ERR Syntax error in HELLO option '" + std::string(args[i]) + "'");
    }
  }
  client.protocol = protocol;
  if (naming) client.name = new_name;
  // The version is the Redis whose commands and texts this server follows: clients decide
  // what they may send by it (as other RESP servers, Dragonfly and KeyDB, do too).
  append_map_header(out, protocol, 7);
  append_bulk(out, "server");
  append_bulk(out, "wirebench");
  append_bulk(out, "version");
  append_bulk(out, "7.0.0");
  append_bulk(out, "proto");
  append_integer(out, static_cast<std::uint64_t>(protocol));
  append_bulk(out, "id");
  append_integer(out, client.id);
  append_bulk(out, "mode");
  append_bulk(out, "standalone");
  append_bulk(out, "role");
  append_bulk(out, "master");
  append_bulk(out, "modules");
  out.append("*0\r\n");
}

// CLIENT, the subcommands a client library sends as it connects.
void client_command(std::span<const std::string_view> args, client_state& client, std::string& out) {
  if (args.size() < 2) return wrong_arity(out, "client");
  const std::string_view sub = args[1];
  if (is(sub, "SETNAME")) {
    if (args.size() != 3) return wrong_arity(out, "client|setname");
    if (!valid_client_name(args[2]))
      return append_error(out,
                          "ERR Client names cannot contain spaces, newlines or special characters.");
    client.name = args[2];
    out.append("+OK\r\n");
  } else if (is(sub, "GETNAME")) {
    if (args.size() != 2) return wrong_arity(out, "client|getname");
    if (client.name.empty()) append_null(out, client.protocol);
    else append_bulk(out, client.name);
  } else if (is(sub, "ID")) {
    if (args.size() != 2) return wrong_arity(out, "client|id");
    append_integer(out, client.id);
  } else if (is(sub, "INFO")) {
    if (args.size() != 2) return wrong_arity(out, "client|info");
    append_bulk(out, "id=" + std::to_string(client.id) + " name=" + client.name +
                         " resp=" + std::to_string(client.protocol) + " lib-name=" +
                         client.lib_name + " lib-ver=" + client.lib_version + "\n");
  } else if (is(sub, "SETINFO")) {
    if (args.size() != 4) return wrong_arity(out, "client|setinfo");
    if (!valid_client_name(args[3]))
      return append_error(out, "ERR " + std::string(args[2]) +
                                   " cannot contain spaces, newlines or special characters.");
    if (is(args[2], "LIB-NAME")) client.lib_name = args[3];
    else if (is(args[2], "LIB-VER")) client.lib_version = args[3];
    else return append_error(out, "ERR Unrecognized option '" + std::string(args[2]) + "'");
    out.append("+OK\r\n");
  } else {
    append_error(out, "ERR unknown subcommand '" + std::string(sub.substr(0, 128)) +
                          "'. Try CLIENT HELP.");
  }
}

// CONFIG GET pattern [pattern ...]: the two parameters redis-benchmark asks for, answered truly
// (this server keeps no data: no snapshots, no append-only file); any other matches nothing.
void config_command(std::span<const std::string_view> args, const client_state& client,
                    std::string& out) {
  if (args.size() < 2) return wrong_arity(out, "config");
  if (!is(args[1], "GET"))
    return append_error(out, "ERR unknown subcommand '" + std::string(args[1].substr(0, 128)) +
                                 "'. Try CONFIG HELP.");
  if (args.size() < 3) return wrong_arity(out, "config|get");
  static constexpr std::pair<std::string_view, std::string_view> parameters[] = {
      {"appendonly", "no"}, {"save", ""}};
  bool matched[std::size(parameters)] = {};
  std::size_t count = 0;
  for (std::size_t i = 2; i < args.size(); ++i) {
    const std::string pattern(args[i]);  // fnmatch wants a C string
    for (std::size_t p = 0; p < std::size(parameters); ++p) {
      if (matched[p]) continue;
      const std::string name(parameters[p].first);
      if (fnmatch(pattern.c_str(), name.c_str(), FNM_CASEFOLD) == 0) {
        matched[p] = true;
        ++count;
      }
    }
  }
  append_map_header(out, client.protocol, count);
  for (std::size_t p = 0; p < std::size(parameters); ++p) {
    if (!matched[p]) continue;
    append_bulk(out, parameters[p].first);
    append_bulk(out, parameters[p].second);
  }
}

}  // namespace

void append_bulk(std::string& out, std::string_view value) { append_bulk(out, {}, value); }

void append_bulk(std::string& out, std::string_view prefix, std::string_view value) {
  char digits[24];
  const auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), prefix.size() + value.size());
  out.push_back('$');
  out.append(digits, end);
  out.append("\r\n").append(prefix).append(value).append("\r\n");
}

void append_error(std::string& out, std::string_view message) {
  out.push_back('-');
  out.append(message).append("\r\n");
}

after_reply answer(std::span<const std::string_view> args, client_state& client, std::string& out) {
  const std::string_view name = args[0];
  if (is(name, "GREET")) {
    if (args.size() != 2) wrong_arity(out, "greet");
    else append_bulk(out, "hello, ", args[1]);  // expected_greeting(), without a temporary
  } else if (is(name, "PING")) {
    if (args.size() == 1) out.append("+PONG\r\n");
    else if (args.size() == 2) append_bulk(out, args[1]);
    else wrong_arity(out, "ping");
  } else if (is(name, "ECHO")) {
    if (args.size() != 2) wrong_arity(out, "echo");
    else append_bulk(out, args[1]);
  } else if (is(name, "HELLO")) {
    hello(args, client, out);
  } else if (is(name, "CLIENT")) {
    client_command(args, client, out);
  } else if (is(name, "CONFIG")) {
    config_command(args, client, out);
  } else if (is(name, "QUIT")) {  // Redis 7 takes QUIT with any arguments
    out.append("+OK\r\n");
    return after_reply::close;
  } else {
    unknown_command(out, args);
  }
  return after_reply::go_on;
}

}  // namespace wirebench::resp
