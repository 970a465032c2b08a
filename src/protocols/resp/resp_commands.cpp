#include "resp_commands.hpp"

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

after_reply answer(std::span<const std::string_view> args, std::string& out) {
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
  } else if (is(name, "QUIT")) {  // Redis 7 takes QUIT with any arguments
    out.append("+OK\r\n");
    return after_reply::close;
  } else {
    unknown_command(out, args);
  }
  return after_reply::go_on;
}

}  // namespace wirebench::resp
