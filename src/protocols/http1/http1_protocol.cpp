// `http1`: the greet call as REST over HTTP/1.1 (RFC 9112): GET /greet?name=NAME or POST /greet
// with {"name": NAME} -> {"greeting": "hello, NAME"}.
#include "http1_backend.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {

void register_http1_protocol(protocol_registry& registry) {
  registry.add({
      .name = "http1",
      .summary = "HTTP/1.1 REST: GET /greet?name=NAME -> {\"greeting\":\"hello, NAME\"}, keep-alive",
      .user_calls = user_call_kind::http,
      .make_server = http1::make_server,
      .make_client = http1::make_client,
      .client_codecs = http1::client_codecs,
  });
}

}  // namespace wirebench
