#pragma once
// The resp server's commands: what each request is answered with, in RESP2, with Redis 7's
// exact error texts so that redis-cli and redis-benchmark see what a real Redis would say.
//   GREET name -> $ "hello, name"      PING -> +PONG      PING x -> $ x
//   ECHO x     -> $ x                  QUIT -> +OK (then the connection closes)
// and what clients send when they connect (redis-py, go-redis, redis-benchmark, redis-cli):
//   HELLO [2|3 [AUTH user pass] [SETNAME name]]   CLIENT SETNAME|GETNAME|ID|INFO|SETINFO
//   CONFIG GET pattern...  (save "" and appendonly "no": this server keeps nothing)
// RESP3 (after HELLO 3) changes only the shape of HELLO's, CLIENT GETNAME's null and CONFIG
// GET's replies: every other reply here is the same in both versions.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace wirebench::resp {

enum class after_reply { go_on, close };

// What one connection has said about itself. Made when the connection opens.
struct client_state {
  explicit client_state(std::uint64_t client_id) : id(client_id) {}
  std::uint64_t id;     // Redis's CLIENT ID: unique in its server, increasing (from 1)
  int protocol = 2;     // RESP version, set by HELLO
  std::string name;     // CLIENT SETNAME / HELLO ... SETNAME
  std::string lib_name, lib_version;  // CLIENT SETINFO
};

// Appends the reply to `args` (a command: args[0] is its name, any case) to `out`.
after_reply answer(std::span<const std::string_view> args, client_state& client, std::string& out);

// RESP2 encodings, appended to `out`.
void append_bulk(std::string& out, std::string_view value);
void append_bulk(std::string& out, std::string_view prefix, std::string_view value);  // one bulk
void append_error(std::string& out, std::string_view message);  // "-" + message + "\r\n"

}  // namespace wirebench::resp
