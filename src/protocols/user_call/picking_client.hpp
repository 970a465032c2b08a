#pragma once
// The per-call half of call_picks.hpp: a client (or a codec) made with every variant of the
// user's requests as its calls, wrapped so that each call's payload, which names a request of the
// user's mix (request_payload), names one of that request's variants instead, picked uniformly at
// random. The registry wraps every client whose requests have picks; the load drivers and results
// see only the user's requests.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "wirebench/codec/client_codec.hpp"
#include "wirebench/protocols/call_picks.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

class pick_table {
 public:
  explicit pick_table(const picked_calls& picked);
  // The payload that names, to the client underneath, a variant of the request `payload` names,
  // from the generator `state`; "" (which names no call of a mix) when it names none.
  std::string_view pick(std::string_view payload, std::uint64_t& state) const;

 private:
  std::vector<std::size_t> first_;     // picked_calls::first
  std::vector<std::string> payloads_;  // each variant's: its index in decimal
};

std::unique_ptr<protocol_client> picking_client(std::unique_ptr<protocol_client> variants,
                                                std::shared_ptr<const pick_table> table);
client_codec_factory picking_codecs(client_codec_factory variants, std::shared_ptr<const pick_table> table);

}  // namespace wirebench
