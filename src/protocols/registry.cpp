#include "wirebench/protocols/registry.hpp"

#include <stdexcept>
#include <string>

namespace wirebench {

void protocol_registry::add(protocol p) {
  if (find(p.name) != nullptr)
    throw std::invalid_argument("protocol '" + p.name + "' is registered twice");
  if (!p.tls) {
    // One check for every tool (serve, call, run, benchmarks): --tls is never silently ignored.
    auto refuse = [name = p.name] {
      throw std::invalid_argument("--tls: protocol '" + name + "' does not speak TLS here");
    };
    p.make_server = [make = std::move(p.make_server), refuse](const server_config& c) {
      if (c.tls.enabled) refuse();
      return make(c);
    };
    p.make_client = [make = std::move(p.make_client), refuse](const client_config& c) {
      if (c.tls.enabled) refuse();
      return make(c);
    };
  }
  protocols_.push_back(std::move(p));
}

const protocol* protocol_registry::find(std::string_view name) const {
  for (const auto& p : protocols_)
    if (p.name == name) return &p;
  return nullptr;
}

const protocol_registry& protocol_registry::builtin() {
  static const protocol_registry registry = [] {
    protocol_registry r;
    register_builtin_protocols(r);
    return r;
  }();
  return registry;
}

void register_builtin_protocols(protocol_registry& registry) {
  register_line_protocol(registry);
  register_length_prefixed_protocol(registry);
  register_mux_protocol(registry);
  register_msgpack_rpc_protocol(registry);
  register_http1_protocol(registry);
  register_http2_protocol(registry);
  register_grpc_protocols(registry);
  register_resp_protocols(registry);
}

}  // namespace wirebench
