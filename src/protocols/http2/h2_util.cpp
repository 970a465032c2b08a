#include "h2_util.hpp"

#include <cstring>

#include "../tls/tls_channel.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench::http2 {

std::error_code flush(nghttp2_session* session, connection& c, tls::tls_channel* tls) {
  std::string out;
  for (;;) {
    const uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(session, &data);
    if (n < 0) return errc::protocol_error;
    if (n == 0) break;
    out.append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(n));
  }
  std::error_code ec;
  if (tls != nullptr) {
    if (!out.empty()) ec = tls->send(out);
    out = tls->take_output();
  }
  if (!out.empty()) c.send({}, std::move(out), {});
  return ec;
}

std::error_code unwrap(tls::tls_channel* tls, std::span<const std::byte>& data, std::string& plain) {
  if (tls == nullptr) return {};
  plain.clear();
  const std::error_code ec = tls->receive(data, plain);
  data = as_bytes(plain);
  return ec;
}

}  // namespace wirebench::http2
