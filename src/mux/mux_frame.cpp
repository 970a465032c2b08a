#include "wirebench/mux/mux_frame.hpp"

#include "wirebench/core/error.hpp"

namespace wirebench {

std::optional<mux_frame> parse_mux_frame(std::span<const std::byte> frame) {
  if (frame.size() < mux_header_bytes) return std::nullopt;
  const auto type = std::to_integer<std::uint8_t>(frame[0]);
  if (type < 1 || type > 7) return std::nullopt;
  std::uint32_t id = 0;
  for (std::size_t i = 1; i < 5; ++i) id = (id << 8) | std::to_integer<std::uint32_t>(frame[i]);
  return mux_frame{static_cast<mux_frame_type>(type), id, frame.subspan(mux_header_bytes)};
}

std::optional<mux_frame> next_mux_frame(length_prefix_decoder& decoder,
                                        std::span<const std::byte> data, std::size_t& consumed,
                                        std::error_code& error) {
  const decode_result r = decoder.decode(data.subspan(consumed));
  consumed += r.consumed;
  if (r.status == decode_status::need_more) return std::nullopt;
  if (r.status != decode_status::frame) {
    error = r.status == decode_status::too_large ? errc::frame_too_long : errc::corrupt_frame;
    return std::nullopt;
  }
  auto f = parse_mux_frame(r.frame);
  if (!f) error = errc::protocol_error;
  return f;
}

std::error_code encode_mux_frame(mux_frame_type type, std::uint32_t id,
                                 std::span<const std::byte> payload, std::size_t max_payload,
                                 encoded_frame& out) {
  if (payload.size() > max_payload || payload.size() > UINT32_MAX - mux_header_bytes)
    return errc::frame_too_long;
  out = encoded_frame{};
  const auto length = static_cast<std::uint32_t>(payload.size() + mux_header_bytes);
  out.prefix_bytes = {std::byte(length >> 24), std::byte(length >> 16), std::byte(length >> 8),
                      std::byte(length),       std::byte(static_cast<std::uint8_t>(type)),
                      std::byte(id >> 24),     std::byte(id >> 16),     std::byte(id >> 8),
                      std::byte(id)};
  out.prefix_size = 4 + mux_header_bytes;
  out.payload = payload;
  return {};
}

}  // namespace wirebench
