#include "h2_util.hpp"

#include <cstring>

#include "../tls/tls_channel.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench::http2 {

std::error_code flush(nghttp2_session* session, gather_queue& out, tls::tls_channel* tls) {
  std::string plain;  // TLS protects one contiguous run
  for (;;) {
    const uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(session, &data);
    if (n < 0) return errc::protocol_error;
    if (n == 0) break;
    const auto bytes = std::span(reinterpret_cast<const std::byte*>(data), static_cast<std::size_t>(n));
    if (tls == nullptr)
      out.append_bytes(bytes);  // copied into the queue's arena: no string in between
    else
      plain.append(as_text(bytes));
  }
  if (tls == nullptr) return {};
  std::error_code ec;
  if (!plain.empty()) ec = tls->send(plain);
  const std::string cipher = tls->take_output();
  if (!cipher.empty()) out.append_bytes(as_bytes(cipher));
  return ec;
}

std::error_code flush(nghttp2_session* session, connection& c, tls::tls_channel* tls) {
  const std::error_code ec = flush(session, c.outbox(), tls);
  c.request_flush();
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
