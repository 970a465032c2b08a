#pragma once
// The http2 backend's server and client, built by its registry entry (h2_protocol.cpp).
#include <memory>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench::http2 {

std::unique_ptr<protocol_server> make_server(const server_config& config);
std::unique_ptr<protocol_client> make_client(const client_config& config);
client_codec_factory client_codecs(const client_config& config);

}  // namespace wirebench::http2
