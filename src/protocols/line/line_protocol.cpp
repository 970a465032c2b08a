// `line`: the plain TCP protocol of the comparisons this project grew from.
// Request "name\n", reply "hello, name\n"; "\r\n" accepted on input. Ordered replies (FIFO).
#include "../framing/framing_protocol.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/codec/line_encoder.hpp"

namespace wirebench {
namespace {

struct line_framing {
  using decoder = line_decoder;
  using encoder = line_encoder;
  static constexpr std::size_t max_framing_bytes = 2;  // "\r\n"
  static decoder make_decoder(std::size_t max, oversize_policy policy) {
    return line_decoder({.max_line_bytes = max, .strip_cr = true, .on_oversize = policy});
  }
  static encoder make_encoder(std::size_t max) {
    return line_encoder({.max_line_bytes = max, .crlf = false});
  }
};

// "name\n" both ways.
greet_wire line_wire() {
  auto line = [](std::string_view text, std::uint32_t) { return std::string(text) + "\n"; };
  return {line, line};
}

void register_line_protocol(protocol_registry& registry) {
  registry.add(framing_protocol<line_framing>(
      "line", "newline-delimited: \"name\\n\" -> \"hello, name\\n\", replies in order", line_wire()));
}

const protocol_registration line_registration{10, register_line_protocol};

}  // namespace

}  // namespace wirebench
