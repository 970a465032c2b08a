#pragma once
// The registry entry of a greet protocol on a stream framing (line, length-prefixed): its client
// and server codecs, TLS, oversize requests answered and skipped when asked (resync), and calls pipelined up to 1024 deep per connection by default (depth
// sets it; the load generator uses 1 per caller). Framing: see framing_server_codec.hpp.
#include <string>

#include "framing_client_codec.hpp"
#include "framing_server_codec.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {

template <class Framing>
protocol framing_protocol(std::string name, std::string summary, greet_wire wire) {
  return {
      .name = std::move(name),
      .summary = std::move(summary),
      .can = {.resyncs_oversize = true,
              .tls = true,
              .engine_depth = 1024},
      .test = {.wire = std::move(wire)},
      .client_codecs = framing_client_codecs<Framing>,
      .server_codecs = framing_server_codecs<Framing>,
  };
}

}  // namespace wirebench
