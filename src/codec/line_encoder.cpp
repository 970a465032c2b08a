#include "wirebench/codec/line_encoder.hpp"

#include <cstring>

#include "wirebench/core/error.hpp"

namespace wirebench {

std::error_code line_encoder::encode(std::span<const std::byte> payload, encoded_frame& out) const {
  if (payload.size() > config_.max_line_bytes) return errc::frame_too_long;
  if (!payload.empty() && std::memchr(payload.data(), '\n', payload.size()) != nullptr)
    return errc::invalid_argument;
  out = encoded_frame{};
  out.payload = payload;
  if (config_.crlf) {
    out.suffix_bytes = {std::byte{'\r'}, std::byte{'\n'}};
    out.suffix_size = 2;
  } else {
    out.suffix_bytes[0] = std::byte{'\n'};
    out.suffix_size = 1;
  }
  return {};
}

}  // namespace wirebench
