#include "wirebench/codec/length_prefix_encoder.hpp"

#include <algorithm>

#include "wirebench/core/error.hpp"

namespace wirebench {

length_prefix_encoder::length_prefix_encoder(length_prefix_config config) : config_(config) {
  config_.validate();
}

std::error_code length_prefix_encoder::encode(std::span<const std::byte> payload,
                                              encoded_frame& out) const {
  const std::size_t width = config_.header_bytes;
  const std::uint64_t width_max =
      width >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * width)) - 1;
  if (payload.size() > config_.max_frame_bytes || payload.size() > width_max)
    return errc::frame_too_long;
  out = encoded_frame{};  // the lead bytes, if any, are zeros
  const std::size_t header = config_.lead_bytes + width;
  std::uint64_t length = payload.size();
  for (std::size_t i = header; i-- > config_.lead_bytes;) {
    out.prefix_bytes[i] = static_cast<std::byte>(length & 0xff);
    length >>= 8;
  }
  out.prefix_size = static_cast<std::uint8_t>(header);
  out.payload = payload;
  return {};
}

}  // namespace wirebench
