#include "h2_util.hpp"

#include "wirebench/codec/bytes.hpp"

namespace wirebench::http2 {

std::error_code flush(nghttp2_session* session, gather_queue& out) {
  // Copied into the queue's arena: no string in between.
  return mem_send_all(session, [&](std::span<const std::byte> b) { out.append_bytes(b); });
}

}  // namespace wirebench::http2
