#pragma once
// What the protocols that extend gRPC's (Connect, gRPC-Web: ../connect, ../grpc_web) take from
// this folder for their registry entries: the one server that answers them all (by content type,
// rpc_dialect.hpp), and the libraries a result records.
#include <string>
#include <utility>
#include <vector>

#include "wirebench/protocols/protocol.hpp"
#include "wirebench/protocols/registry.hpp"

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

class rpc_client_wire;

/// The RPC client codec's factory (grpc_client_codec.hpp) for `config`, writing its calls as
/// `wire` does: the greet call, or the user's (--call with --proto or --reflect, mixes).
client_codec_factory rpc_client_codecs(const client_config& config, const rpc_client_wire& wire,
                                       bool http1 = false);

/// Adds the two entries whose calls go to that server in `wire`'s protocol, named and summed up
/// by the wire: on our HTTP/2 (`connect`, `grpc-web`: gRPC's libraries and capabilities, its user
/// calls, the server, whose entry is grpc's: reference.server_of), and on our HTTP/1.1, named
/// wire.name() + "-h1" (`connect-h1`, `grpc-web-h1`), against the same server on the same port
/// (rpc_server_codec.hpp): no TLS (the server's ALPN offers h2 alone), no keep-alive ping
/// (HTTP/1.1 has none), the user calls HTTP/1.1 carries (not a bidirectional stream: the server
/// answers 505).
void add_http_entries(protocol_registry& registry, const rpc_client_wire& wire);

/// An entry whose calls are messages on one bidirectional stream per connection, matched by id
/// (grpc_client_codec.hpp's stream codec, `batch` calls per message), in `wire`'s protocol on our
/// HTTP/2, against that server: grpc-stream and grpc-batch, connect-stream.
protocol rpc_stream_entry(std::string name, std::string summary, std::size_t batch, const rpc_client_wire& wire);

}  // namespace wirebench::grpc_wire
