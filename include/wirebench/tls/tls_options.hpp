#pragma once
// What a TLS endpoint is given: on or off, the server's certificate, the client's CA.
#include <string>

namespace wirebench {

/// TLS settings of a server or a client (wirebench's http2 backend; tls_client_codec.hpp for any
/// client codec).
struct tls_options {
  /// Use TLS.
  bool enabled = false;
  /// Server: PEM files; both empty = a self-signed certificate made in memory at start-up.
  std::string certificate_file;
  /// Server: the private key's PEM file (see certificate_file).
  std::string private_key_file;
  /// Client: verify the server's certificate against this CA file; empty = no verification
  /// (benchmark mode, for servers with a self-signed certificate).
  std::string ca_file;
  /// Field-by-field equality.
  friend bool operator==(const tls_options&, const tls_options&) = default;
};

}  // namespace wirebench
