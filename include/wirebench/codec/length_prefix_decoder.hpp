#pragma once
// Length-prefixed framing, sans-IO: a big-endian unsigned length of 1, 2, 4 or 8 bytes, then that
// many payload bytes. Zero-length frames are valid. The header may start with lead bytes before
// the length (gRPC's message: a 1-byte compressed flag, then a 4-byte length); the decoder hands
// them back with the frame (lead_of) and leaves their meaning to the caller, the encoder writes
// them as zeros for the caller to set. The length is checked against max_frame_bytes from the
// header alone, before any byte of the payload is buffered; a length that cannot be represented
// (header + length overflows, or >= 2^63) is corrupt and always fatal.
#include <cstddef>
#include <cstdint>

#include "wirebench/core/api.hpp"
#include "wirebench/core/frame_decoder.hpp"
#include "wirebench/core/decode_result.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {

/// Settings of a length-prefixed encoder and decoder.
struct WIREBENCH_API length_prefix_config {
  /// Width of the big-endian length header.
  std::size_t header_bytes = 4;            // 1, 2, 4 or 8
  /// Largest payload allowed.
  std::size_t max_frame_bytes = 1 << 20;   // payload bytes, not counting the header
  /// What the decoder does after a frame over max_frame_bytes.
  oversize_policy on_oversize = oversize_policy::fail;
  /// Header bytes before the length (0 to 8): gRPC's compressed flag is 1.
  std::size_t lead_bytes = 0;

  /// Throws std::invalid_argument naming the bad field (a start-up error).
  void validate() const;
};

/// Length-prefixed frame decoder (see above). Keeps state between calls: one per stream.
class WIREBENCH_API length_prefix_decoder {
 public:
  /// Throws std::invalid_argument on a bad config (config.validate()).
  explicit length_prefix_decoder(length_prefix_config config = {});

  /// Decodes the next frame from `data`, every unconsumed byte of the stream (see decode_result.hpp).
  decode_result decode(std::span<const std::byte> data) {
    // The common case, inline: a 4-byte length and a whole frame of allowed size in `data`.
    const std::size_t at = config_.lead_bytes;
    if (config_.header_bytes == 4 && data.size() >= at + 4 && skip_remaining_ == 0 &&
        failed_ == decode_status::need_more) {
      const std::size_t length = (std::to_integer<std::size_t>(data[at]) << 24) |
                                 (std::to_integer<std::size_t>(data[at + 1]) << 16) |
                                 (std::to_integer<std::size_t>(data[at + 2]) << 8) |
                                 std::to_integer<std::size_t>(data[at + 3]);
      if (length <= config_.max_frame_bytes && data.size() - at - 4 >= length)
        return {decode_status::frame, at + 4 + length, data.subspan(at + 4, length)};
    }
    return decode_any(data);
  }

  /// The lead bytes of the frame a decode just returned (status frame): views into the same buffer.
  std::span<const std::byte> lead_of(const decode_result& r) const {
    return {r.frame.data() - config_.header_bytes - config_.lead_bytes, config_.lead_bytes};
  }

  /// True only while discarding an oversize frame: a partial frame of normal size is simply
  /// unconsumed bytes, which the caller (the connection) sees for itself.
  bool mid_frame() const { return skip_remaining_ > 0; }
  /// True once the decoder reported a fatal error (it then keeps reporting it).
  bool failed() const { return failed_ != decode_status::need_more; }
  /// After too_large or corrupt: frame_too_long or corrupt_frame (see frame_decoder.hpp).
  std::error_code error() const {
    return failed_ == decode_status::corrupt ? errc::corrupt_frame : errc::frame_too_long;
  }
  /// The configuration it was made with.
  const length_prefix_config& config() const { return config_; }

 private:
  decode_result decode_any(std::span<const std::byte> data);  // every case

  length_prefix_config config_;
  std::uint64_t skip_remaining_ = 0;               // resync: payload bytes still to discard
  decode_status failed_ = decode_status::need_more;  // sticky error status once failed
};

static_assert(frame_decoder<length_prefix_decoder>);

}  // namespace wirebench
