#pragma once
// OpenSSL contexts for our TLS endpoints, and a self-signed certificate made in memory so that
// tests and benchmarks never need a key on disk (nothing secret is ever committed).
#include <memory>
#include <string>
#include <string_view>

#include <openssl/ssl.h>

#include "wirebench/core/api.hpp"
#include "wirebench/tls/tls_options.hpp"

namespace wirebench::tls {

/// A shared OpenSSL context (SSL_CTX), freed with its last owner.
using context_ptr = std::shared_ptr<SSL_CTX>;

/// A certificate and its private key, in PEM.
struct certificate_pem {
  /// The certificate, PEM.
  std::string certificate;
  /// The private key, PEM.
  std::string private_key;
};

/// A fresh P-256 key and a certificate for it, signed by itself, valid for a day, for
/// `common_name` with subjectAltName that name, localhost, 127.0.0.1 and ::1. It is a CA of its
/// own (a server's, or a client's for mutual TLS, verifies against itself). Throws on OpenSSL
/// failure.
WIREBENCH_API certificate_pem make_self_signed_certificate(
    std::string_view common_name = "localhost");

/// A server context accepting exactly alpn.protocol when one is offered (a client offering only
/// others fails the handshake with no_application_protocol, RFC 7301); when alpn.required, a
/// client offering no ALPN fails too. The certificate and key come from the options' PEM files,
/// or, when those are empty, from make_self_signed_certificate(). Throws with OpenSSL's reason
/// when a file cannot be used.
WIREBENCH_API context_ptr make_server_context(const tls_options& options, alpn_choice alpn);

/// A client context offering `alpn` (none when empty). It verifies the server's certificate chain
/// against options.ca_file, or the system's CAs when that is empty, unless options.insecure; the
/// name is checked per connection (tls_channel's server_name). Throws when the CA file cannot be
/// used.
WIREBENCH_API context_ptr make_client_context(const tls_options& options, std::string_view alpn);

}  // namespace wirebench::tls
