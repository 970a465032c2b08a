#pragma once
// Newline framing: payload + "\n" (or "\r\n"), as gather buffers.
#include <cstddef>
#include <system_error>

#include "wirebench/core/api.hpp"
#include "wirebench/core/encoded_frame.hpp"

namespace wirebench {

/// Settings of a line_encoder.
struct line_encoder_config {
  /// Longest payload allowed, not counting the delimiter.
  std::size_t max_line_bytes = 64 * 1024;
  bool crlf = false;  // end lines with "\r\n" instead of "\n"
};

/// Newline frame encoder (see above). Stateless: encode() is const.
class WIREBENCH_API line_encoder {
 public:
  /// Keeps `config` as given (no validation).
  explicit line_encoder(line_encoder_config config = {}) : config_(config) {}

  /// Fails with invalid_argument if the payload holds a '\n' (it would be two frames on the wire),
  /// or frame_too_long if it is over max_line_bytes. O(payload) for the '\n' check (memchr).
  std::error_code encode(std::span<const std::byte> payload, encoded_frame& out) const;

 private:
  line_encoder_config config_;
};

}  // namespace wirebench
