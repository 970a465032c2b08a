// `line`: the plain TCP protocol of the comparisons this project grew from.
// Request "name\n", reply "hello, name\n"; "\r\n" accepted on input. Ordered replies (FIFO).
#include "../common/backend_support.hpp"
#include "../framed/framed_client_codec.hpp"
#include "../framed/framed_server_codec.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/codec/line_encoder.hpp"
#include "wirebench/protocols/registry.hpp"

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
  registry.add({
      .name = "line",
      .summary = "newline-delimited: \"name\\n\" -> \"hello, name\\n\", replies in order",
      // Calls are pipelined up to 1024 deep per connection by default (depth sets it; the load
      // generator uses 1 per caller).
      .tls = true,
      .engine_depth = 1024,
      .wire = line_wire(),
      .client_codecs = framed_client_codecs<line_framing>,
      .server_codecs = framed_server_codecs<line_framing>,
  });
}

const protocol_registration registered{10, register_line_protocol};

}  // namespace

}  // namespace wirebench
