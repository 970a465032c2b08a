// `resp`, `resp-sync` and `redis-server`: the greet call as a Redis command over RESP2.
// resp and resp-sync share our server (GREET name -> $ "hello, name") and differ in the client:
// pipelined on our transport, or one blocking hiredis connection per worker. redis-server is the
// real Redis beside them, called with ECHO "hello, name".
#include "resp_backend.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {

void register_resp_protocols(protocol_registry& registry) {
  registry.add({
      .name = "resp",
      .summary = "Redis protocol (RESP2): GREET NAME -> $\"hello, NAME\", pipelined client (hiredis reader)",
      .tls = true,
      .user_calls = user_call_kind::resp,
      .make_server = resp::make_server,
      .client_codecs = [](const client_config& c) { return resp::client_codecs(c, resp::greet_command::greet); },
  });
  registry.add({
      .name = "resp-sync",
      .summary = "RESP2 server as resp; client: blocking hiredis, one connection and thread per worker",
      .make_server = resp::make_server,
      .make_client = resp::make_sync_client,
  });
  registry.add({
      .name = "redis-server",
      .summary = "Reference: a real redis-server on loopback, ECHO \"hello, NAME\" from the resp client",
      .user_calls = user_call_kind::resp,
      .make_server = resp::make_redis_server,
      .client_codecs = [](const client_config& c) { return resp::client_codecs(c, resp::greet_command::echo); },
  });
}

}  // namespace wirebench
