#include "wirebench/codec/length_prefix_decoder.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace wirebench {

void length_prefix_config::validate() const {
  if (header_bytes != 1 && header_bytes != 2 && header_bytes != 4 && header_bytes != 8)
    throw std::invalid_argument("length_prefix_config.header_bytes must be 1, 2, 4 or 8, not " +
                                std::to_string(header_bytes));
  if (lead_bytes > 8)
    throw std::invalid_argument("length_prefix_config.lead_bytes must be 0 to 8, not " +
                                std::to_string(lead_bytes));
}

length_prefix_decoder::length_prefix_decoder(length_prefix_config config) : config_(config) {
  config_.validate();
}

decode_result length_prefix_decoder::decode_any(std::span<const std::byte> data) {
  if (failed_ != decode_status::need_more) return {failed_, 0, {}};

  std::size_t dropped = 0;  // payload bytes of an oversize frame discarded in this call (resync)
  if (skip_remaining_ > 0) {
    const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(skip_remaining_, data.size()));
    skip_remaining_ -= k;
    dropped = k;
    data = data.subspan(k);
    if (skip_remaining_ > 0) return {decode_status::need_more, dropped, {}};
  }

  const std::size_t header = config_.lead_bytes + config_.header_bytes;
  if (data.size() < header) return {decode_status::need_more, dropped, {}};

  std::uint64_t length = 0;
  for (std::size_t i = config_.lead_bytes; i < header; ++i)
    length = (length << 8) | std::to_integer<std::uint64_t>(data[i]);

  constexpr std::uint64_t max_representable =
      std::min<std::uint64_t>(std::numeric_limits<std::int64_t>::max(),
                              std::numeric_limits<std::size_t>::max() - 8);
  if (length > max_representable) {
    failed_ = decode_status::corrupt;
    return {decode_status::corrupt, dropped, {}};
  }
  if (length > config_.max_frame_bytes) {
    if (config_.on_oversize == oversize_policy::resync) {
      const auto available = static_cast<std::uint64_t>(data.size() - header);
      const auto taken = std::min(available, length);
      skip_remaining_ = length - taken;
      return {decode_status::too_large, dropped + header + static_cast<std::size_t>(taken), {}};
    }
    failed_ = decode_status::too_large;
    return {decode_status::too_large, dropped, {}};
  }
  const auto len = static_cast<std::size_t>(length);
  if (data.size() - header < len) return {decode_status::need_more, dropped, {}};
  return {decode_status::frame, dropped + header + len, data.subspan(header, len)};
}

}  // namespace wirebench
