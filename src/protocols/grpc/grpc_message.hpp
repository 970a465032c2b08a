#pragma once
// gRPC's message framing (doc/PROTOCOL-HTTP2.md, Length-Prefixed-Message): a 1-byte compressed
// flag, a 4-byte big-endian length, then the message. The length-prefixed framing with one lead
// byte (codec/length_prefix_decoder.hpp), not a parser of its own; what is gRPC's is the flag.
// Sans-IO, zero-copy: a frame_decoder (core/frame_decoder.hpp) over a stream's unconsumed bytes.
#include <cstddef>
#include <span>
#include <string>
#include <system_error>

#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/core/decode_result.hpp"
#include "wirebench/core/frame_decoder.hpp"

namespace wirebench::grpc_wire {

/// gRPC's default receive limit (grpc's GRPC_DEFAULT_MAX_RECV_MESSAGE_LENGTH): 4 MiB.
constexpr std::size_t default_max_message_bytes = 4 * 1024 * 1024;

/// One message as it arrived: still compressed when `compressed` (grpc-encoding says how).
struct grpc_message {
  bool compressed = false;
  std::span<const std::byte> bytes;  // a view into the caller's buffer
};

/// The messages of one stream (see above), one decoder per stream. too_large: a message over the
/// limit (frame_too_long: gRPC's RESOURCE_EXHAUSTED); corrupt: a flag other than 0 or 1
/// (protocol_error: gRPC's INTERNAL). Either way the stream is lost: it keeps failing.
class grpc_message_decoder {
 public:
  explicit grpc_message_decoder(std::size_t max_message_bytes = default_max_message_bytes)
      : frames_({.header_bytes = 4, .max_frame_bytes = max_message_bytes, .lead_bytes = 1}) {}

  /// The next message in `data`, every unconsumed byte of the stream (see decode_result.hpp).
  decode_step<grpc_message> decode(std::span<const std::byte> data) {
    if (bad_flag_) return {decode_status::corrupt, 0, {}};
    const decode_result r = frames_.decode(data);
    if (r.status != decode_status::frame) return {r.status, r.consumed, {}};
    const std::byte flag = frames_.lead_of(r)[0];
    if (flag != std::byte{0} && flag != std::byte{1}) {
      bad_flag_ = true;
      return {decode_status::corrupt, 0, {}};
    }
    return {decode_status::frame, r.consumed, {flag == std::byte{1}, r.frame}};
  }
  /// After too_large or corrupt: frame_too_long or protocol_error.
  std::error_code error() const;

 private:
  length_prefix_decoder frames_;
  bool bad_flag_ = false;
};

static_assert(frame_decoder<grpc_message_decoder>);

/// Appends the 5-byte prefix of a message of `size` bytes (under 4 GiB) to `out`: for a message
/// serialized into a string right after it.
void append_grpc_prefix(std::size_t size, bool compressed, std::string& out);

}  // namespace wirebench::grpc_wire
