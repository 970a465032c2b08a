#include "grpc_message.hpp"

#include "wirebench/codec/length_prefix_encoder.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_wire {

std::error_code grpc_message_decoder::error() const {
  return bad_flag_ ? make_error_code(errc::protocol_error) : frames_.error();
}

std::error_code encode_grpc_message(std::span<const std::byte> bytes, bool compressed,
                                    std::size_t max_message_bytes, encoded_frame& out) {
  const length_prefix_encoder encoder(
      {.header_bytes = 4, .max_frame_bytes = max_message_bytes, .lead_bytes = 1});
  if (const std::error_code ec = encoder.encode(bytes, out)) return ec;
  out.prefix_bytes[0] = std::byte{compressed ? std::uint8_t{1} : std::uint8_t{0}};
  return {};
}

void append_grpc_prefix(std::size_t size, bool compressed, std::string& out) {
  out.push_back(compressed ? '\1' : '\0');
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((size >> shift) & 0xff));
}

}  // namespace wirebench::grpc_wire
