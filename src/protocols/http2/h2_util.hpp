#pragma once
// Small helpers around nghttp2's sans-IO session, shared by our HTTP/2 server and client.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nghttp2/nghttp2.h>

namespace wirebench {
class connection;
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

// Everything nghttp2 has to send, handed to the connection as one buffer (gathered with the rest
// of this loop turn's output). Returns false on a fatal session error.
bool flush(nghttp2_session* session, connection& c);

}  // namespace wirebench::http2
