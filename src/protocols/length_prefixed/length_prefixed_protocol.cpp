// `length-prefixed`: the greet call in frames of a 4-byte big-endian length + payload.
// Ordered replies (FIFO).
#include "../framing/framing_protocol.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/codec/length_prefix_encoder.hpp"

namespace wirebench {
namespace {

struct length_prefixed_framing {
  using decoder = length_prefix_decoder;
  using encoder = length_prefix_encoder;
  static constexpr std::size_t max_framing_bytes = 4;
  static decoder make_decoder(std::size_t max, oversize_policy policy) {
    return length_prefix_decoder(
        {.header_bytes = 4, .max_frame_bytes = max, .on_oversize = policy});
  }
  static encoder make_encoder(std::size_t max) {
    return length_prefix_encoder({.header_bytes = 4, .max_frame_bytes = max});
  }
};

std::string big_endian32(std::size_t n) {
  return {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
          static_cast<char>(n)};
}

// A 4-byte big-endian length, then the text, both ways.
greet_wire length_prefixed_wire() {
  auto frame = [](std::string_view text, std::uint32_t) {
    return big_endian32(text.size()) + std::string(text);
  };
  return {frame, frame};
}

void register_length_prefixed_protocol(protocol_registry& registry) {
  registry.add(framing_protocol<length_prefixed_framing>(
      "length-prefixed",
      "4-byte big-endian length + name -> length + \"hello, name\", replies in order",
      length_prefixed_wire()));
}

const protocol_registration length_prefixed_registration{20, register_length_prefixed_protocol};

}  // namespace

}  // namespace wirebench
