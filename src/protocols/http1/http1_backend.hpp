#pragma once
// The http1 backend's server and clients, built by its registry entry (http1_protocol.cpp).
#include <memory>
#include <string>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench::http1 {

// HTTP/1.1 over TLS offers ALPN http/1.1; a peer that offers no ALPN is served too (RFC 9112
// needs none).
inline constexpr alpn_choice tls_alpn{"http/1.1", false};

// The server's codec (on the session server, made by the registry).
server_codec_factory server_codecs(const server_config& config);
// How the client uses its connections: kept open, calls pipelined up to the depth (http1), or a
// new connection for every call, each request saying Connection: close (http1-close).
enum class connection_use { persistent, one_per_call };
client_codec_factory client_codecs(const client_config& config,
                                   connection_use use = connection_use::persistent);

// The Host header for an endpoint.
std::string host_header(const endpoint& where);
// Appends a GET request for the greet call to `out`.
void append_greet_request(std::string& out, std::string_view name, const std::string& host,
                          bool keep_alive);

}  // namespace wirebench::http1
