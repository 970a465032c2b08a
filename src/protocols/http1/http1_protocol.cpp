// `http1`: the greet call as REST over HTTP/1.1 (RFC 9112): GET /greet?name=NAME or POST /greet
// with {"name": NAME} -> {"greeting": "hello, NAME"}.
#include <llhttp.h>

#include "http1_backend.hpp"
#include "../http/http_call.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

std::vector<std::pair<std::string, std::string>> http1_libraries() {
  return {{"llhttp", dotted_version(LLHTTP_VERSION_MAJOR, LLHTTP_VERSION_MINOR, LLHTTP_VERSION_PATCH)}};
}

// GET /greet?name=NAME, and the server's exact 200 (Date as the epoch's).
greet_wire http1_wire() {
  return {[](std::string_view name, std::uint32_t) {
            return "GET /greet?name=" + std::string(name) + " HTTP/1.1\r\nHost: test\r\n\r\n";
          },
          [](std::string_view greeting, std::uint32_t) {
            const std::string body = "{\"greeting\":\"" + std::string(greeting) + "\"}";
            return "HTTP/1.1 200 OK\r\nServer: wirebench\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\n"
                   "Content-Type: application/json\r\nContent-Length: " +
                   std::to_string(body.size()) + "\r\n\r\n" + body;
          }};
}

// One entry per way the client uses its connections; the same server.
protocol http1_entry(std::string name, std::string summary, http1::connection_use use) {
  return {
      .name = std::move(name),
      .summary = std::move(summary),
      .libraries = http1_libraries,
      .can = {.tls = true,
              .tls_alpn = http1::tls_alpn,
              .user_calls = &http_call_form()},
      .test = {.wire = http1_wire()},
      .client_codecs = [use](const client_config& c) { return http1::client_codecs(c, use); },
      .server_codecs = http1::server_codecs,
  };
}

void register_http1_protocol(protocol_registry& registry) {
  registry.add(http1_entry(
      "http1", "HTTP/1.1 REST: GET /greet?name=NAME -> {\"greeting\":\"hello, NAME\"}, keep-alive",
      http1::connection_use::persistent));
  // A client that opens a connection per call, as HTTP/1.0-style clients do: what a round trip
  // costs when every call pays a TCP handshake (issue 19's network comparison).
  protocol close = http1_entry(
      "http1-close",
      "HTTP/1.1 as http1, but a connection per call: every request says Connection: close",
      http1::connection_use::one_per_call);
  close.reference.server_of = "http1";
  close.can.connection_per_call = true;
  registry.add(std::move(close));
}

const protocol_registration http1_registration{50, register_http1_protocol};

}  // namespace

}  // namespace wirebench
