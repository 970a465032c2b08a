// `grpc`: the greet call as gRPC unary Echo.Greet (doc/PROTOCOL-HTTP2.md) on our own HTTP/2
// (nghttp2's sans-IO session, the http2 protocol's core) and protobuf: server and client are
// codecs on the server skeleton and the client engine, h2c or TLS with ALPN h2. grpc++ is the
// reference implementation beside it (`grpcpp`, ../grpcpp).
#include <google/protobuf/stubs/common.h>
#include <nghttp2/nghttp2.h>

#include "grpc_client_codec.hpp"
#include "grpc_server_session.hpp"
#include "../http2/h2_backend.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

std::vector<std::pair<std::string, std::string>> grpc_libraries() {
  return {{"nghttp2", nghttp2_version(0)->version_str},
          {"protobuf", google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION)}};
}

server_codec_factory grpc_server_codecs(const server_config& c) {
  const grpc_wire::grpc_server_config settings{.http2 = http2::session_config(c),
                                              .max_message_bytes = c.max_frame_bytes};
  return [settings] { return std::make_unique<grpc_wire::grpc_server_session>(settings); };
}

client_codec_factory grpc_client_codecs(const client_config& c) {
  const grpc_wire::grpc_client_config settings{
      .authority = http2::authority_for(c.connect),
      .https = c.tls.enabled,
      .max_message_bytes = c.max_frame_bytes,
      .timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(c.reply_timeout)};
  return [settings] { return grpc_wire::make_grpc_client_codec(settings); };
}

void register_grpc_protocol(protocol_registry& registry) {
  registry.add({
      .name = "grpc",
      .summary = "gRPC unary Echo.Greet(GreetRequest) -> GreetReply on our HTTP/2 (nghttp2, "
                 "protobuf; h2c, or TLS with ALPN h2), calls as streams on one connection",
      .multiplexed = true,
      .tls = true,
      .tls_alpn = http2::tls_alpn,
      // nghttp2 holds streams beyond the server's concurrency limit; the depth only bounds memory.
      .engine_depth = 1024,
      .libraries = grpc_libraries,
      .server_options = http2::server_options(),
      .fit_server_to_load = http2::fit_server_to_load,
      .client_codecs = grpc_client_codecs,
      .server_codecs = grpc_server_codecs,
  });
}

const protocol_registration registered{65, register_grpc_protocol};

}  // namespace

}  // namespace wirebench
