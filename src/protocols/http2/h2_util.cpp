#include "h2_util.hpp"

#include "wirebench/codec/bytes.hpp"

namespace wirebench::http2 {

std::error_code flush(nghttp2_session* session, gather_queue& out) {
  // Copied into the queue's arena: no string in between.
  return mem_send_all(session, [&](std::span<const std::byte> b) { out.append_bytes(b); });
}

session_ptr new_session(bool server, const session_callbacks& c, void* user, bool manual_windows) {
  nghttp2_session_callbacks* cb = nullptr;
  nghttp2_session_callbacks_new(&cb);
  const callbacks_ptr owned(cb);
  if (c.begin_frame) nghttp2_session_callbacks_set_on_begin_frame_callback(cb, c.begin_frame);
  if (c.begin_headers) nghttp2_session_callbacks_set_on_begin_headers_callback(cb, c.begin_headers);
  if (c.header) nghttp2_session_callbacks_set_on_header_callback(cb, c.header);
  if (c.data_chunk) nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, c.data_chunk);
  if (c.frame_recv) nghttp2_session_callbacks_set_on_frame_recv_callback(cb, c.frame_recv);
  if (c.frame_send) nghttp2_session_callbacks_set_on_frame_send_callback(cb, c.frame_send);
  if (c.stream_close) nghttp2_session_callbacks_set_on_stream_close_callback(cb, c.stream_close);
  nghttp2_option* option = nullptr;
  nghttp2_option_new(&option);
  nghttp2_option_set_no_auto_window_update(option, manual_windows ? 1 : 0);
  nghttp2_session* s = nullptr;
  if (server) nghttp2_session_server_new2(&s, cb, user, option);
  else nghttp2_session_client_new2(&s, cb, user, option);
  nghttp2_option_del(option);
  return session_ptr(s);
}

}  // namespace wirebench::http2
