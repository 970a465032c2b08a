// `http2`: the greet call as REST over HTTP/2 (RFC 9113, nghttp2), cleartext with prior knowledge
// (h2c) or over TLS with ALPN h2 (server_config.tls / client_config.tls).
#include <nghttp2/nghttp2.h>

#include "h2_backend.hpp"
#include "../http/http_call.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

std::vector<std::pair<std::string, std::string>> http2_libraries() {
  return {{"nghttp2", nghttp2_version(0)->version_str}};
}

void register_http2_protocol(protocol_registry& registry) {
  registry.add({
      .name = "http2",
      .summary = "HTTP/2 (nghttp2; h2c, or TLS with ALPN h2) REST: GET /greet?name=NAME as streams on one connection",
      .libraries = http2_libraries,
      .can = {.tls = true,
              .keepalive = true,
              .tls_alpn = http2::tls_alpn,
              // nghttp2 holds streams beyond the server's concurrency limit; the depth only
              // bounds memory.
              .engine_depth = 1024,
              .user_calls = &http_call_form(),
                            .server_options = http2::server_options(),
              .fit_server_to_load = http2::fit_server_to_load},
      .client_codecs = http2::client_codecs,
      .server_codecs = http2::server_codecs,
  });
}

const protocol_registration http2_registration{60, register_http2_protocol};

}  // namespace

}  // namespace wirebench
