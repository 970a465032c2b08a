#pragma once
// The multiplexed protocol's frame, carried as the payload of a 4-byte length-prefixed frame:
//
//   offset 0  type     u8   (see mux_frame_type)
//   offset 1  id       u32  big-endian request id (0 for ping/pong/drain)
//   offset 5  payload  the rest (request body, reply body, or error text)
//
// Sans-IO: mux_frame_decoder finds frames in a stream and parse_mux_frame() reads one, as views; encode_mux_frame() makes the length and the header a
// gather buffer in front of the caller's payload (write_mux_header() writes them in place).
// docs/PROTOCOLS.md has a hex example.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <system_error>

#include "wirebench/core/api.hpp"
#include "wirebench/core/frame_decoder.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/core/encoded_frame.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {

/// A mux frame's type byte (offset 0).
enum class mux_frame_type : std::uint8_t {
  request = 1,      // client -> server: call `id` with the payload
  reply = 2,        // server -> client: the result of call `id`
  error_reply = 3,  // server -> client: call `id` failed; the payload is the reason (text)
  cancel = 4,       // client -> server: the client gave up on `id`; the server may drop its work
  ping = 5,         // either way: answer with pong carrying the same payload
  pong = 6,
  drain = 7,        // server -> client: finishing what is in flight, then closing; send no more
};

/// Bytes of the mux header (type and id) before the payload.
constexpr std::size_t mux_header_bytes = 5;

/// A parsed mux frame (parse_mux_frame()).
struct mux_frame {
  /// What the frame is.
  mux_frame_type type;
  /// The request id (0 for ping/pong/drain).
  std::uint32_t id;
  /// The rest of the frame: a view into the caller's bytes.
  std::span<const std::byte> payload;
};

/// Parses a length-prefixed frame's payload. nullopt when it is shorter than the header or the type
/// is unknown (the stream is then broken: errc::protocol_error).
/// Inline, with mux_frame_decoder: both run once per frame on the client's and the server's path.
inline std::optional<mux_frame> parse_mux_frame(std::span<const std::byte> frame) {
  if (frame.size() < mux_header_bytes) return std::nullopt;
  const auto type = std::to_integer<std::uint8_t>(frame[0]);
  if (type < 1 || type > 7) return std::nullopt;
  const std::uint32_t id = (std::to_integer<std::uint32_t>(frame[1]) << 24) |
                           (std::to_integer<std::uint32_t>(frame[2]) << 16) |
                           (std::to_integer<std::uint32_t>(frame[3]) << 8) |
                           std::to_integer<std::uint32_t>(frame[4]);
  return mux_frame{static_cast<mux_frame_type>(type), id, frame.subspan(mux_header_bytes)};
}

/// The mux frames in a stream of 4-byte length-prefixed frames: a zero-copy frame_decoder
/// (core/frame_decoder.hpp), one per stream. too_large: a payload over the limit; corrupt: a
/// length that cannot be (corrupt_frame) or a payload that is not a mux frame (protocol_error).
/// Either way the stream is lost: the decoder keeps failing. Inline: it runs once per frame on the
/// client's and the server's path.
class mux_frame_decoder {
 public:
  /// Frames whose payload (after the mux header) is over max_payload_bytes are too_large.
  explicit mux_frame_decoder(std::size_t max_payload_bytes)
      : frames_({4, max_payload_bytes + mux_header_bytes, oversize_policy::fail}) {}

  /// The next frame in `data`, every unconsumed byte of the stream (see decode_result.hpp).
  decode_step<mux_frame> decode(std::span<const std::byte> data) {
    if (not_mux_) return {decode_status::corrupt, 0, {}};
    const decode_result r = frames_.decode(data);
    if (r.status != decode_status::frame) return {r.status, r.consumed, {}};
    if (const auto f = parse_mux_frame(r.frame)) return {decode_status::frame, r.consumed, *f};
    not_mux_ = true;
    return {decode_status::corrupt, r.consumed, {}};
  }
  /// After too_large or corrupt: frame_too_long, corrupt_frame or protocol_error.
  std::error_code error() const {
    return not_mux_ ? make_error_code(errc::protocol_error) : frames_.error();
  }
  /// As length_prefix_decoder's: a partial frame is unconsumed bytes, which the caller sees.
  bool mid_frame() const { return frames_.mid_frame(); }

 private:
  length_prefix_decoder frames_;
  bool not_mux_ = false;  // a length-prefixed frame that was not a mux frame
};

static_assert(frame_decoder<mux_frame_decoder>);

/// The 9 bytes before a payload of `payload_size` (at most UINT32_MAX - mux_header_bytes): the
/// 4-byte length, then the mux header. For encoders that write a frame in place.
inline void write_mux_header(std::byte* at, mux_frame_type type, std::uint32_t id,
                             std::size_t payload_size) {
  const auto length = static_cast<std::uint32_t>(payload_size + mux_header_bytes);
  at[0] = std::byte(length >> 24);
  at[1] = std::byte(length >> 16);
  at[2] = std::byte(length >> 8);
  at[3] = std::byte(length);
  at[4] = std::byte(static_cast<std::uint8_t>(type));
  at[5] = std::byte(id >> 24);
  at[6] = std::byte(id >> 16);
  at[7] = std::byte(id >> 8);
  at[8] = std::byte(id);
}

/// The full frame as gather buffers: the 4-byte length and the mux header as prefix, the caller's
/// payload referenced. max_payload is the receiver's limit (frame_too_long when over it).
WIREBENCH_API std::error_code encode_mux_frame(mux_frame_type type, std::uint32_t id,
                                               std::span<const std::byte> payload,
                                               std::size_t max_payload, encoded_frame& out);

}  // namespace wirebench
