#pragma once
// Newline framing, sans-IO. A frame is the bytes before a '\n'.
//
// CR policy: with strip_cr, one '\r' right before the '\n' is not part of the frame (so "a\r\n" and
// "a\n" both give "a"); a '\r' anywhere else is data. Without strip_cr, '\r' is always data.
// max_line_bytes bounds the frame as delivered (after stripping), not counting the delimiter.
// A line is reported too_large as soon as the bytes seen prove it is over the limit, not when its
// '\n' finally arrives, and the decoder never scans a byte twice (linear on byte-by-byte input).
#include <cstddef>
#include <system_error>

#include "wirebench/core/api.hpp"
#include "wirebench/core/frame_decoder.hpp"
#include "wirebench/core/decode_result.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {

/// Settings of a line_decoder.
struct line_decoder_config {
  /// Longest line delivered, after stripping, not counting the delimiter.
  std::size_t max_line_bytes = 64 * 1024;
  /// Drop one '\r' right before the '\n' (see above).
  bool strip_cr = true;
  /// What the decoder does after a line over max_line_bytes.
  oversize_policy on_oversize = oversize_policy::fail;
};

/// Newline frame decoder (see above). Keeps state between calls: one per stream.
class WIREBENCH_API line_decoder {
 public:
  /// Keeps `config` as given (no validation).
  explicit line_decoder(line_decoder_config config = {});

  /// `data` is every unconsumed byte of the stream (see decode_result.hpp).
  decode_result decode(std::span<const std::byte> data);

  /// True when bytes of an unfinished line have been seen (used for read timeouts and for telling a
  /// clean end of stream from a truncated one).
  bool mid_frame() const { return scanned_ > 0 || discarding_; }
  /// True once the decoder reported a fatal too_large (fail policy; it then keeps reporting it).
  bool failed() const { return failed_; }
  /// After too_large: frame_too_long (a line has no other error; see frame_decoder.hpp).
  std::error_code error() const { return errc::frame_too_long; }
  /// The configuration it was made with.
  const line_decoder_config& config() const { return config_; }

 private:
  line_decoder_config config_;
  std::size_t scanned_ = 0;   // bytes of the current line already searched for '\n'
  bool discarding_ = false;   // resync: dropping an oversize line up to its '\n'
  bool failed_ = false;
};

static_assert(frame_decoder<line_decoder>);

}  // namespace wirebench
