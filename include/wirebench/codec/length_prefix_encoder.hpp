#pragma once
// Length-prefixed framing: big-endian length header + the caller's payload, as gather buffers.
#include <system_error>

#include "wirebench/core/api.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/core/encoded_frame.hpp"

namespace wirebench {

/// Length-prefixed frame encoder (see above). Stateless: encode() is const.
class WIREBENCH_API length_prefix_encoder {
 public:
  /// Throws std::invalid_argument on a bad config (config.validate()).
  explicit length_prefix_encoder(length_prefix_config config = {});

  /// Fails with frame_too_long if the payload is over max_frame_bytes or over what the header width
  /// can express (255 bytes for a 1-byte header).
  std::error_code encode(std::span<const std::byte> payload, encoded_frame& out) const;

 private:
  length_prefix_config config_;
};

}  // namespace wirebench
