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

// The callbacks a session is made with (null: none).
struct session_callbacks {
  nghttp2_on_begin_frame_callback begin_frame = nullptr;
  nghttp2_on_begin_headers_callback begin_headers = nullptr;
  nghttp2_on_header_callback header = nullptr;
  nghttp2_on_data_chunk_recv_callback data_chunk = nullptr;
  nghttp2_on_frame_recv_callback frame_recv = nullptr;
  nghttp2_on_frame_send_callback frame_send = nullptr;
  nghttp2_on_stream_close_callback stream_close = nullptr;
};

// A new server or client session with these callbacks, `user` their user data. With
// `manual_windows`, nghttp2 sends no WINDOW_UPDATE for DATA until the application has consumed it
// (nghttp2_session_consume*): how a receiver holds back a sender it cannot keep up with.
session_ptr new_session(bool server, const session_callbacks& callbacks, void* user,
                        bool manual_windows = false);

inline nghttp2_nv header(std::string_view name, std::string_view value) {
  return {reinterpret_cast<uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
          NGHTTP2_NV_FLAG_NONE};
}

// A header whose name and value outlive the stream (literals, the stream's record, the codec):
// nghttp2 references them instead of copying.
inline nghttp2_nv static_header(std::string_view name, std::string_view value) {
  nghttp2_nv h = header(name, value);
  h.flags = NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE;
  return h;
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
