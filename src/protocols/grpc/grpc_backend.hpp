#pragma once
// What the protocols that extend gRPC's (Connect, gRPC-Web: ../connect, ../grpc_web) take from
// this folder for their registry entries: the one server that answers them all (by content type,
// rpc_dialect.hpp), and the libraries a result records.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench::grpc_wire {

/// The gRPC server session on the session server: gRPC and every registered dialect.
server_codec_factory server_codecs(const server_config& config);

/// nghttp2's and protobuf's versions.
std::vector<std::pair<std::string, std::string>> libraries();

/// What an entry whose calls go to that server over our HTTP/2 can do: TLS with ALPN h2,
/// keep-alive pings, HTTP/2's server options, deep pipelines (nghttp2 holds streams beyond the
/// server's concurrency limit, and a stream's calls queue in its window: the depth only bounds
/// memory).
protocol_capabilities http2_capabilities();

/// What every unary client codec on our HTTP/2 takes from the client's config.
struct http2_call_settings {
  std::string authority;                            // :authority
  bool https = false;                               // :scheme https (TLS under the codec)
  std::size_t max_message_bytes = 4 * 1024 * 1024;  // the largest reply message accepted
  std::chrono::nanoseconds timeout{0};              // the call's timeout, sent; 0: none
};
http2_call_settings http2_call_settings_of(const client_config& config);

/// An entry whose calls go to that server over our HTTP/2 (`connect`, `grpc-web`): gRPC's
/// libraries and capabilities, the server, whose entry is grpc's (reference.server_of), and a
/// client whose codecs `make_codec` makes, one per connection, from the client config's settings.
protocol http2_entry(std::string name, std::string summary,
                     std::function<std::unique_ptr<client_codec>(const http2_call_settings&)> make_codec);

}  // namespace wirebench::grpc_wire
