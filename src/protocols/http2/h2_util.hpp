#pragma once
// Small helpers around nghttp2's sans-IO session, shared by our HTTP/2 server and client.
#include <memory>
#include <string>
#include <span>
#include <string_view>
#include <system_error>
#include <vector>

#include <nghttp2/nghttp2.h>

#include "wirebench/core/error.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace wirebench::http2 {

struct session_deleter {
  void operator()(nghttp2_session* s) const { nghttp2_session_del(s); }
};
using session_ptr = std::unique_ptr<nghttp2_session, session_deleter>;

struct callbacks_deleter {
  void operator()(nghttp2_session_callbacks* c) const { nghttp2_session_callbacks_del(c); }
};
using callbacks_ptr = std::unique_ptr<nghttp2_session_callbacks, callbacks_deleter>;

inline nghttp2_nv header(std::string_view name, std::string_view value) {
  return {reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
          NGHTTP2_NV_FLAG_NONE};
}

// Calls sink(std::span<const std::byte>) with each run of bytes nghttp2 has to send, until it has
// nothing left; a run is valid only during its call. protocol_error on a fatal session error.
template <typename Sink>
std::error_code mem_send_all(nghttp2_session* session, Sink&& sink) {
  for (;;) {
    const uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(session, &data);
    if (n < 0) return errc::protocol_error;
    if (n == 0) return {};
    sink(std::span(reinterpret_cast<const std::byte*>(data), static_cast<std::size_t>(n)));
  }
}

// Everything nghttp2 has to send, appended to `out` (gathered with the rest of this loop turn's
// output; TLS, when on, is a layer under the codec or session and seals it there). Returns
// protocol_error on a fatal session error.
std::error_code flush(nghttp2_session* session, gather_queue& out);

}  // namespace wirebench::http2
