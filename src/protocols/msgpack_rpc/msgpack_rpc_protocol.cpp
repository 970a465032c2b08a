// `msgpack-rpc`: the greet call as MessagePack-RPC method "greet" with params [name], result
// "hello, <name>" (docs/PROTOCOLS.md).
#include "msgpack_rpc_backend.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {

void register_msgpack_rpc_protocol(protocol_registry& registry) {
  registry.add({
      .name = "msgpack-rpc",
      .summary = "MessagePack-RPC: [0, msgid, \"greet\", [name]] -> [1, msgid, nil, \"hello, name\"]",
      .multiplexed = true,
      .tls = true,
      .engine_depth = 1024,
      .user_calls = user_call_kind::msgpack,
      .make_server = msgpack_rpc::make_server,
      .client_codecs = msgpack_rpc::client_codecs,
  });
}

}  // namespace wirebench
