#pragma once
// A sans-IO TLS endpoint: OpenSSL driven through two memory BIOs, so no socket is involved.
// Ciphertext from the peer goes in through receive(); plaintext comes out in the caller's buffer;
// what must go to the peer (handshake messages, records, alerts) is collected by take_output().
// This lets a protocol put TLS under its own sans-IO session (HTTP/2 under nghttp2) without the
// transport knowing, and lets tests pair a client and a server channel in memory.
#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

#include <openssl/ssl.h>

#include "wirebench/core/api.hpp"

namespace wirebench::tls {

/// Frees an SSL with SSL_free (for std::unique_ptr).
struct ssl_deleter {
  /// Frees `s`.
  void operator()(SSL* s) const { SSL_free(s); }
};

/// A sans-IO TLS endpoint (see above). Not thread-safe: one owner at a time.
class WIREBENCH_API tls_channel {
 public:
  /// Which side of the handshake this channel plays.
  enum class role { client, server };
  /// `server_name`: the client's SNI and, when the context verifies peers, the name (or IP
  /// address) the server's certificate must carry. `alpn`: the protocol the handshake must agree
  /// on (empty: none required).
  /// Throws std::runtime_error if OpenSSL cannot make the session (SSL_new).
  tls_channel(SSL_CTX* context, role r, std::string_view server_name = {},
              std::string_view alpn = {});

  /// Ciphertext from the peer. Decrypted bytes are appended to `plain`. Errors: errc::tls_failed
  /// (handshake failure, bad record, no agreed ALPN protocol; output may then hold an alert to
  /// send), errc::peer_closed (the peer sent close_notify).
  std::error_code receive(std::span<const std::byte> cipher, std::string& plain);
  /// Plaintext to protect and send; held until the handshake completes (a client's first send
  /// starts the handshake).
  std::error_code send(std::string_view plain);
  /// Everything that must go to the peer now; empty when nothing is due.
  std::string take_output();
  /// Starts a clean close: queues close_notify.
  void shutdown();

  /// True once the handshake has completed.
  bool established() const { return established_; }
  /// The ALPN protocol the handshake agreed on; empty when none.
  std::string_view negotiated_alpn() const;
  /// OpenSSL's description of the last failure, for logs and tests.
  const std::string& failure() const { return failure_; }

 private:
  std::error_code advance_handshake();
  std::error_code flush_held();
  std::error_code write_all(std::string_view plain);
  std::error_code fail(std::string what);

  std::unique_ptr<SSL, ssl_deleter> ssl_;
  BIO* in_ = nullptr;   // owned by ssl_
  BIO* out_ = nullptr;  // owned by ssl_
  std::string alpn_;
  std::string held_;  // plaintext sent before the handshake completed
  std::array<char, 16 * 1024> scratch_;  // one record's worth of decrypted bytes
  std::string failure_;
  bool established_ = false;
  bool failed_ = false;
};

}  // namespace wirebench::tls
