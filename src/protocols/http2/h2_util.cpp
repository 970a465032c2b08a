#include "h2_util.hpp"

#include "wirebench/tls/tls_channel.hpp"
#include "wirebench/codec/bytes.hpp"

namespace wirebench::http2 {

std::error_code flush(nghttp2_session* session, gather_queue& out, tls::tls_channel* tls) {
  if (tls == nullptr)  // copied into the queue's arena: no string in between
    return mem_send_all(session, [&](std::span<const std::byte> b) { out.append_bytes(b); });
  std::string plain;  // TLS protects one contiguous run
  if (auto ec = mem_send_all(session, [&](std::span<const std::byte> b) { plain.append(as_text(b)); }))
    return ec;
  return wrap(*tls, plain, out);
}

std::error_code wrap(tls::tls_channel& tls, std::string_view plain, gather_queue& out) {
  std::error_code ec;
  if (!plain.empty()) ec = tls.send(plain);
  const std::string cipher = tls.take_output();
  if (!cipher.empty()) out.append_bytes(as_bytes(cipher));
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
