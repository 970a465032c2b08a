#pragma once
// The protocols the harness can run, by name. Backends are added in one place
// (register_builtin_protocols), so a protocol joins every tool by registering once.
#include <span>
#include <string_view>
#include <vector>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

class protocol_registry {
 public:
  // Throws std::invalid_argument if the name is taken.
  void add(protocol p);
  const protocol* find(std::string_view name) const;
  std::span<const protocol> all() const { return protocols_; }

  // Every backend built into wirebench.
  static const protocol_registry& builtin();

 private:
  std::vector<protocol> protocols_;
};

void register_builtin_protocols(protocol_registry& registry);

// "" when `p`'s client can send `call` (protocol::user_calls); else why not, one line for the
// user. The registry's make_client and client_codecs refuse such a config with this text.
std::string check_user_call(const protocol& p, const user_call& call);

// One-call-per-backend registration hooks, defined in each protocol's folder.
void register_line_protocol(protocol_registry& registry);
void register_length_prefixed_protocol(protocol_registry& registry);
void register_mux_protocol(protocol_registry& registry);
void register_msgpack_rpc_protocol(protocol_registry& registry);
void register_http1_protocol(protocol_registry& registry);
void register_http2_protocol(protocol_registry& registry);
void register_grpc_protocols(protocol_registry& registry);  // grpc, grpc-stream, grpc-batch
void register_resp_protocols(protocol_registry& registry);  // resp, resp-sync, redis-server

}  // namespace wirebench
