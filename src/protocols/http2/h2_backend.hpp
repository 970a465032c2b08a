#pragma once
// The http2 backend's server and client, built by its registry entry (h2_protocol.cpp).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "wirebench/codec/server_codec.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::http2 {

// HTTP/2 over TLS is negotiated with ALPN, and must be (RFC 9113, 3.2).
inline constexpr alpn_choice tls_alpn{"h2", true};

// SETTINGS_MAX_CONCURRENT_STREAMS and the flow-control windows: as large as RFC 9113 allows.
inline constexpr std::uint64_t max_streams = 1u << 31;
inline constexpr std::uint64_t max_window_bytes = (1u << 31) - 1;

// The server's own settings (--max-streams, --stream-window, --connection-window).
std::vector<protocol_option> server_options();
// Lets `calls` streams in at once on a connection (protocol_capabilities::fit_server_to_load).
void fit_server_to_load(server_config& config, std::size_t calls);

struct server_session_config;
// The HTTP/2 settings of `config` (its options), and its body limit (max_frame_bytes).
server_session_config session_config(const server_config& config);

// ":authority" for a connection to `where` ("localhost" over a Unix socket).
std::string authority_for(const endpoint& where);

server_codec_factory server_codecs(const server_config& config);
client_codec_factory client_codecs(const client_config& config);

}  // namespace wirebench::http2
