#pragma once
// The resp backends' servers and clients, built by their registry entries (resp_protocol.cpp).
#include <memory>
#include <string>
#include <string_view>

#include "resp_request_parser.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::resp {

// The parser limits of a server built from `config`: bulk = max_frame_bytes, Redis's others.
request_limits server_limits(const server_config& config);

// Our RESP2 server's codec (GREET, PING, ECHO, HELLO, CLIENT, CONFIG, QUIT), on the session server.
server_codec_factory server_codecs(const server_config& config);
// A real /usr/bin/redis-server on loopback, as the reference (throws std::runtime_error if it is
// not installed).
std::unique_ptr<protocol_server> make_redis_server(const server_config& config);

// How a client turns the greet call into a command: GREET name (ours), or ECHO "hello, name"
// (a real Redis has no GREET; the reply is the same bulk string).
enum class greet_command { greet, echo };

// Pipelined asynchronous client: hiredis formats and parses, our transport moves the bytes.
client_codec_factory client_codecs(const client_config& config, greet_command how);
// The same as a registry entry's client_codecs, greeting one way.
template <greet_command How>
client_codec_factory client_codecs_greeting(const client_config& config) {
  return client_codecs(config, How);
}
// Blocking hiredis contexts, one connection and one thread each.
std::unique_ptr<protocol_client> make_sync_client(const client_config& config);

}  // namespace wirebench::resp
