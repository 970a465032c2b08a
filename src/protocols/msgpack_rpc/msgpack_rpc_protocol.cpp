// `msgpack-rpc`: the greet call as MessagePack-RPC method "greet" with params [name], result
// "hello, <name>" (docs/PROTOCOLS.md).
#include <msgpack/version.hpp>

#include "msgpack_call.hpp"
#include "msgpack_rpc_backend.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

std::vector<std::pair<std::string, std::string>> msgpack_libraries() {
  return {{"msgpack-cxx", msgpack_version()}};
}

// [0, id, "greet", [name]] and [1, id, nil, greeting]: fixarray, positive fixint, fixstr.
greet_wire msgpack_rpc_wire() {
  auto fixstr = [](std::string_view s) {
    return std::string(1, static_cast<char>(0xa0 | s.size())) + std::string(s);
  };
  return {[=](std::string_view name, std::uint32_t id) {
            return std::string("\x94\x00", 2) + static_cast<char>(id) + "\xa5greet\x91" + fixstr(name);
          },
          [=](std::string_view greeting, std::uint32_t id) {
            return std::string("\x94\x01", 2) + static_cast<char>(id) + "\xc0" + fixstr(greeting);
          }};
}

void register_msgpack_rpc_protocol(protocol_registry& registry) {
  registry.add({
      .name = "msgpack-rpc",
      .summary = "MessagePack-RPC: [0, msgid, \"greet\", [name]] -> [1, msgid, nil, \"hello, name\"]",
      .libraries = msgpack_libraries,
      .can = {.tls = true,
              .engine_depth = 1024,
              .user_calls = &msgpack_call_form()},
      .test = {.wire = msgpack_rpc_wire()},
      .client_codecs = msgpack_rpc::client_codecs,
      .server_codecs = msgpack_rpc::server_codecs,
  });
}

const protocol_registration msgpack_rpc_registration{40, register_msgpack_rpc_protocol};

}  // namespace

}  // namespace wirebench
