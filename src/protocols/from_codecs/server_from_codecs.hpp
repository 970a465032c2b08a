#pragma once
// A protocol's greet server from its server codecs (protocol::server_codecs): the codec host
// (server/codec_session.hpp) on the session server, set up from server_config, under TLS when it asks.
// The registry makes every such protocol's make_server with it.
#include <memory>
#include <string>

#include "wirebench/codec/server_codec.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

// `thread_name` names the event-loop threads. Throws at start-up, as protocol::make_server does.
std::unique_ptr<protocol_server> make_server_from_codecs(const server_config& c,
                                                   server_codec_factory codecs, alpn_choice alpn,
                                                   std::string thread_name);

}  // namespace wirebench
