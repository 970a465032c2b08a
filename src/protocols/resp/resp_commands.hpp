#pragma once
// The resp server's commands: what each request is answered with, in RESP2, with Redis 7's
// exact error texts so that redis-cli and redis-benchmark see what a real Redis would say.
//   GREET name -> $ "hello, name"      PING -> +PONG      PING x -> $ x
//   ECHO x     -> $ x                  QUIT -> +OK (then the connection closes)
#include <span>
#include <string>
#include <string_view>

namespace wirebench::resp {

enum class after_reply { go_on, close };

// Appends the reply to `args` (a command: args[0] is its name, any case) to `out`.
after_reply answer(std::span<const std::string_view> args, std::string& out);

// RESP2 encodings, appended to `out`.
void append_bulk(std::string& out, std::string_view value);
void append_bulk(std::string& out, std::string_view prefix, std::string_view value);  // one bulk
void append_error(std::string& out, std::string_view message);  // "-" + message + "\r\n"

}  // namespace wirebench::resp
