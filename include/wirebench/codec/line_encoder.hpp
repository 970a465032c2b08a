#pragma once
// Newline framing: payload + "\n" (or "\r\n"), as gather buffers.
#include <cstddef>
#include <system_error>

#include "wirebench/codec/encoded_frame.hpp"

namespace wirebench {

struct line_encoder_config {
  std::size_t max_line_bytes = 64 * 1024;
  bool crlf = false;  // end lines with "\r\n" instead of "\n"
};

class line_encoder {
 public:
  explicit line_encoder(line_encoder_config config = {}) : config_(config) {}

  // Fails with invalid_argument if the payload holds a '\n' (it would be two frames on the wire),
  // or frame_too_long if it is over max_line_bytes. O(payload) for the '\n' check (memchr).
  std::error_code encode(std::span<const std::byte> payload, encoded_frame& out) const;

 private:
  line_encoder_config config_;
};

}  // namespace wirebench
