// `resp`, `resp-sync` and `redis-server`: the greet call as a Redis command over RESP2.
// resp and resp-sync share our server (GREET name -> $ "hello, name") and differ in the client:
// pipelined on our transport, or one blocking hiredis connection per worker. redis-server is the
// real Redis beside them, called with ECHO "hello, name".
#include <hiredis/hiredis.h>

#include "resp_backend.hpp"
#include "resp_call.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

std::vector<std::pair<std::string, std::string>> resp_libraries() {
  return {{"hiredis", dotted_version(HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH)}};
}

// The command as an array of bulk strings (GREET name; ECHO "hello, name" for a real Redis), the
// reply as a bulk string.
std::string bulk(std::string_view s) {
  return "$" + std::to_string(s.size()) + "\r\n" + std::string(s) + "\r\n";
}
greet_wire resp_wire(resp::greet_command command) {
  return {[command](std::string_view name, std::uint32_t) {
            if (command == resp::greet_command::echo)
              return "*2\r\n" + bulk("ECHO") + bulk("hello, " + std::string(name));
            return "*2\r\n" + bulk("GREET") + bulk(name);
          },
          [](std::string_view greeting, std::uint32_t) { return bulk(greeting); }};
}

void register_resp_protocols(protocol_registry& registry) {
  registry.add({
      .name = "resp",
      .summary = "Redis protocol (RESP2): GREET NAME -> $\"hello, NAME\", pipelined client (hiredis reader)",
      .libraries = resp_libraries,
      .can = {.tls = true,
              .user_calls = &resp_call_form()},
      .test = {.wire = resp_wire(resp::greet_command::greet)},
      .client_codecs = resp::client_codecs_greeting<resp::greet_command::greet>,
      .server_codecs = resp::server_codecs,
  });
  registry.add({
      .name = "resp-sync",
      .summary = "RESP2 server as resp; client: blocking hiredis, one connection and thread per worker",
      .libraries = resp_libraries,
      .reference = {.server_of = "resp"},
      .test = {.wire = resp_wire(resp::greet_command::greet)},
      .make_client = resp::make_sync_client,
      .server_codecs = resp::server_codecs,
  });
  registry.add({
      .name = "redis-server",
      .summary = "Reference: a real redis-server on loopback, ECHO \"hello, NAME\" from the resp client",
      .libraries = resp_libraries,
      .can = {.abstract_sockets = false,
              .user_calls = &resp_call_form()},
      .reference = {.server_program = "redis-server"},
      .test = {.wire = resp_wire(resp::greet_command::echo)},
      .make_server = resp::make_redis_server,
      .client_codecs = resp::client_codecs_greeting<resp::greet_command::echo>,
  });
}

const protocol_registration resp_registration{80, register_resp_protocols};

}  // namespace

}  // namespace wirebench
