#include "wirebench/mux/mux_frame.hpp"

#include "wirebench/core/error.hpp"

namespace wirebench {

std::error_code encode_mux_frame(mux_frame_type type, std::uint32_t id,
                                 std::span<const std::byte> payload, std::size_t max_payload,
                                 encoded_frame& out) {
  if (payload.size() > max_payload || payload.size() > UINT32_MAX - mux_header_bytes)
    return errc::frame_too_long;
  out = encoded_frame{};
  write_mux_header(out.prefix_bytes.data(), type, id, payload.size());
  out.prefix_size = 4 + mux_header_bytes;
  out.payload = payload;
  return {};
}

}  // namespace wirebench
