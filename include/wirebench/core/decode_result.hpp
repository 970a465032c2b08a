#pragma once
// The result every zero-copy decoder returns (core/frame_decoder.hpp: line, length-prefixed, mux
// frames, RESP requests). Decoders are fed the *unconsumed* bytes of a stream: the caller drops
// `consumed` bytes from the front before the next call and may append new bytes at the end. A
// frame is a view into the caller's buffer, valid until the caller changes it.
#include <cstddef>
#include <cstdint>
#include <span>

namespace wirebench {

/// What one decode() call found.
enum class decode_status : std::uint8_t {
  need_more,  // no complete frame yet; `consumed` bytes (possibly 0) may still be dropped
  frame,      // `frame` is complete; drop `consumed` bytes (frame + framing) after using it
  too_large,  // a frame over the limit (errc::frame_too_long); see oversize_policy
  corrupt,    // bytes that cannot be a frame (errc::corrupt_frame); the stream is lost
};

/// What a decoder does after a frame over its limit.
enum class oversize_policy : std::uint8_t {
  fail,     // report too_large and keep reporting it: the stream is lost (close the connection)
  resync,   // report too_large once, discard the frame's bytes, then decode the next frame
};

/// One decoder step: what was found, how many bytes to drop, and the frame if one was found.
/// `Frame` is what the decoder finds: a payload's bytes, a mux frame, a RESP command's arguments.
template <class Frame>
struct decode_step {
  /// need_more, frame, too_large or corrupt.
  decode_status status = decode_status::need_more;
  /// Bytes to drop from the front of the data before the next decode().
  std::size_t consumed = 0;
  /// With status frame: what was found, viewing the caller's buffer.
  Frame frame{};
};

/// The step of the byte framings (newline, length-prefixed): the frame is the payload's bytes.
using decode_result = decode_step<std::span<const std::byte>>;

}  // namespace wirebench
