#pragma once
// What a TLS endpoint is given: on or off, the server's certificate, the client's CA.
#include <string>
#include <string_view>

namespace wirebench {

/// TLS settings of a server or a client (tls_server_handler.hpp under any server session,
/// tls_client_codec.hpp under any client codec).
struct tls_options {
  /// Use TLS.
  bool enabled = false;
  /// This side's own certificate chain (PEM file). Server: both it and private_key_file empty
  /// make a self-signed certificate in memory at start-up. Client: a client certificate (mutual
  /// TLS; curl's --cert), none when both are empty.
  std::string certificate_file;
  /// The private key's PEM file (see certificate_file).
  std::string private_key_file;
  /// Server: require every client to present a certificate that verifies against this CA file
  /// (mutual TLS; a client without one, or with another, fails its handshake). Empty: none asked.
  std::string client_ca_file;
  /// Client: the name sent as SNI and that the server's certificate must carry, when it is not
  /// the host dialed (curl's --resolve and --connect-to keep the URL's). Empty: the host dialed.
  std::string server_name;
  /// Client: verify the server's certificate against this CA file; empty = against the system's
  /// CAs (OpenSSL's default paths), as curl and redis-cli do.
  std::string ca_file;
  /// Client: no verification at all (a server with a self-signed certificate; curl's --insecure).
  bool insecure = false;
  /// Field-by-field equality.
  friend bool operator==(const tls_options&, const tls_options&) = default;
};

/// The ALPN protocol (RFC 7301) a protocol's TLS negotiates.
struct alpn_choice {
  /// Offered by the client and accepted by the server ("h2", "http/1.1"); empty: no ALPN.
  std::string_view protocol;
  /// The handshake fails unless both agree on it (HTTP/2, RFC 9113 3.2); false: a peer that
  /// offers no ALPN, or a server that selects none, is fine.
  bool required = false;
  /// Another protocol the server accepts, after `protocol` (the gRPC server's "http/1.1", for
  /// Connect and gRPC-Web over HTTP/1.1 on its one port). A server with one requires no ALPN:
  /// a client that offers none speaks HTTP/1.1 or names HTTP/2 by its preface.
  std::string_view server_also = {};
};

}  // namespace wirebench
