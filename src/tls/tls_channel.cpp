#include "wirebench/tls/tls_channel.hpp"

#include <openssl/err.h>
#include <openssl/x509v3.h>

#include "wirebench/core/error.hpp"

namespace wirebench::tls {
namespace {

std::string openssl_errors() {
  std::string all;
  while (const unsigned long e = ERR_get_error()) {
    char text[256];
    ERR_error_string_n(e, text, sizeof text);
    if (!all.empty()) all += "; ";
    all += text;
  }
  return all;
}

bool is_ip_address(std::string_view name) {
  return name.find(':') != std::string_view::npos ||
         name.find_first_not_of("0123456789.") == std::string_view::npos;
}

}  // namespace

tls_channel::tls_channel(SSL_CTX* context, role r, std::string_view server_name,
                         std::string_view alpn)
    : ssl_(SSL_new(context)), alpn_(alpn) {
  if (!ssl_) throw std::runtime_error("SSL_new failed: " + openssl_errors());
  in_ = BIO_new(BIO_s_mem());
  out_ = BIO_new(BIO_s_mem());
  SSL_set_bio(ssl_.get(), in_, out_);
  if (r == role::server) {
    SSL_set_accept_state(ssl_.get());
    return;
  }
  SSL_set_connect_state(ssl_.get());
  const std::string name(server_name);
  if (!name.empty() && !is_ip_address(name)) SSL_set_tlsext_host_name(ssl_.get(), name.c_str());
  if (!name.empty() && (SSL_CTX_get_verify_mode(context) & SSL_VERIFY_PEER) != 0) {
    if (is_ip_address(name))
      X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl_.get()), name.c_str());
    else
      SSL_set1_host(ssl_.get(), name.c_str());
  }
}

std::string_view tls_channel::negotiated_alpn() const {
  const unsigned char* p = nullptr;
  unsigned int n = 0;
  SSL_get0_alpn_selected(ssl_.get(), &p, &n);
  return {reinterpret_cast<const char*>(p), n};
}

std::error_code tls_channel::fail(std::string what) {
  failed_ = true;
  failure_ = std::move(what);
  return errc::tls_failed;
}

std::error_code tls_channel::advance_handshake() {
  ERR_clear_error();
  const int rc = SSL_do_handshake(ssl_.get());
  if (rc == 1) {
    established_ = true;
    if (!alpn_.empty() && negotiated_alpn() != alpn_)
      return fail("the peer did not agree on ALPN protocol '" + alpn_ + "'");
    return flush_held();
  }
  const int why = SSL_get_error(ssl_.get(), rc);
  if (why == SSL_ERROR_WANT_READ || why == SSL_ERROR_WANT_WRITE) return {};
  const long verify = SSL_get_verify_result(ssl_.get());
  std::string what = "handshake failed: " + openssl_errors();
  if (verify != X509_V_OK) what += std::string(" (certificate: ") + X509_verify_cert_error_string(verify) + ")";
  return fail(std::move(what));
}

std::error_code tls_channel::receive(std::span<const std::byte> cipher, std::string& plain) {
  if (failed_) return errc::tls_failed;
  // A memory BIO takes everything: it grows instead of refusing.
  if (!cipher.empty()) BIO_write(in_, cipher.data(), static_cast<int>(cipher.size()));
  if (!established_) {
    if (auto ec = advance_handshake(); ec || !established_) return ec;
  }
  for (;;) {
    // Into a scratch buffer, not plain.resize(): that would zero 16 KiB on every read.
    ERR_clear_error();
    const int n = SSL_read(ssl_.get(), scratch_.data(), static_cast<int>(scratch_.size()));
    if (n > 0) {
      plain.append(scratch_.data(), static_cast<std::size_t>(n));
      continue;
    }
    const int why = SSL_get_error(ssl_.get(), n);
    if (why == SSL_ERROR_WANT_READ || why == SSL_ERROR_WANT_WRITE) return {};
    if (why == SSL_ERROR_ZERO_RETURN) return errc::peer_closed;
    return fail("record rejected: " + openssl_errors());
  }
}

std::error_code tls_channel::send(std::string_view plain) {
  if (failed_) return errc::tls_failed;
  if (established_ && held_.empty()) return write_all(plain);  // the usual case: no copy
  held_.append(plain);
  if (!established_) return advance_handshake();  // a client's first send writes ClientHello
  return flush_held();
}

std::error_code tls_channel::write_all(std::string_view plain) {
  while (!plain.empty()) {
    ERR_clear_error();
    // A memory BIO never refuses bytes, so SSL_write takes everything or fails.
    const int n = SSL_write(ssl_.get(), plain.data(), static_cast<int>(plain.size()));
    if (n <= 0) return fail("write failed: " + openssl_errors());
    plain.remove_prefix(static_cast<std::size_t>(n));
  }
  return {};
}

std::error_code tls_channel::flush_held() {
  const std::string held = std::move(held_);
  held_.clear();
  return write_all(held);
}

std::string tls_channel::take_output() {
  std::string out;
  const std::size_t n = BIO_ctrl_pending(out_);
  if (n == 0) return out;
  out.resize(n);
  BIO_read(out_, out.data(), static_cast<int>(n));
  return out;
}

void tls_channel::shutdown() {
  if (established_ && !failed_) SSL_shutdown(ssl_.get());
}

}  // namespace wirebench::tls
