#include "h2_util.hpp"

#include <cstring>

#include "wirebench/transport/connection.hpp"

namespace wirebench::http2 {

bool flush(nghttp2_session* session, connection& c) {
  std::string out;
  for (;;) {
    const uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(session, &data);
    if (n < 0) return false;
    if (n == 0) break;
    out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
  }
  if (!out.empty()) c.send({}, std::move(out), {});
  return true;
}

}  // namespace wirebench::http2
