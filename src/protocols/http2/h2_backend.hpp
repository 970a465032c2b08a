#pragma once
// The http2 backend's server and client, built by its registry entry (h2_protocol.cpp).
#include <memory>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench::http2 {

// HTTP/2 over TLS is negotiated with ALPN, and must be (RFC 9113, 3.2).
inline constexpr alpn_choice tls_alpn{"h2", true};

std::unique_ptr<protocol_server> make_server(const server_config& config);
client_codec_factory client_codecs(const client_config& config);

}  // namespace wirebench::http2
