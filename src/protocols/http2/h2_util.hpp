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

namespace wirebench::tls {
class tls_channel;
}

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
// output), through `tls` when the connection has it (which may add handshake messages or an
// alert of its own). Returns protocol_error on a fatal session error, tls_failed when TLS
// refuses the bytes.
std::error_code flush(nghttp2_session* session, gather_queue& out, tls::tls_channel* tls);

// `plain` protected by `tls`, and whatever else TLS has to send (handshake messages, an alert),
// appended to `out`. `plain` may be empty. tls_failed when TLS refuses the bytes.
std::error_code wrap(tls::tls_channel& tls, std::string_view plain, gather_queue& out);

// The bytes nghttp2 should parse: `data` itself in cleartext, or what `tls` decrypts of it into
// `plain`. On a TLS error, returns it; the caller closes after flushing (the alert goes out).
std::error_code unwrap(tls::tls_channel* tls, std::span<const std::byte>& data, std::string& plain);

}  // namespace wirebench::http2
