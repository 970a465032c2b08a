// `mux`: the greet call over our multiplexed protocol (docs/PROTOCOLS.md): many calls in flight
// on one connection, answered in completion order and matched by request id.
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_server_codec.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

client_codec_factory mux_client_codecs(const client_config& c) {
  return [max = c.max_frame_bytes] { return make_mux_client_codec(max); };
}

std::string mux_big_endian32(std::size_t n) {
  return {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
          static_cast<char>(n)};
}

// docs/PROTOCOLS.md: length (of what follows it), type (1 request, 2 reply), id, payload.
greet_wire mux_wire() {
  auto frame = [](char type) {
    return [type](std::string_view text, std::uint32_t id) {
      return mux_big_endian32(text.size() + 5) + type + mux_big_endian32(id) + std::string(text);
    };
  };
  return {frame(1), frame(2)};
}

void register_mux_protocol(protocol_registry& registry) {
  registry.add({
      .name = "mux",
      .summary = "length-prefixed frames with request ids: many calls in flight, any order",
      .can = {.tls = true,
              .keepalive = true,
              .engine_depth = 1024},
      .test = {.wire = mux_wire()},
      .client_codecs = mux_client_codecs,
      .server_codecs = [](const server_config& c) -> server_codec_factory {
        return [max = c.max_frame_bytes] { return std::make_unique<mux_server_codec>(max); };
      },
  });
}

const protocol_registration mux_registration{30, register_mux_protocol};

}  // namespace

}  // namespace wirebench
