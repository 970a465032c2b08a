#pragma once
// A user's HTTP request (user_call.hpp's http_call), shared by the HTTP/1.1 and HTTP/2 client
// codecs: which headers it may set, and the verdict on a response (the expected status and,
// when given, the expected body).
#include <string>
#include <string_view>
#include <system_error>

#include "http_call.hpp"

namespace wirebench::http {

// Refuses (std::invalid_argument, one line) the headers the client writes itself: Content-Length
// and Transfer-Encoding (the body is sent with a length); over HTTP/2 also the connection-specific
// ones RFC 9113 §8.2.2 forbids (Connection, Keep-Alive, Proxy-Connection, Upgrade) and TE other
// than "trailers".
void check_user_headers(const http_call& call, bool http2);

// Content-Length goes with a body, and with the methods that carry one even when it is empty
// (a server may refuse a POST without one: 411).
bool sends_content_length(const http_call& call);

// The value of header `name` among the call's (case-insensitive), or nullptr.
const std::string* find_header(const http_call& call, std::string_view name);

// The HTTP/1.1 request the call sends, once per connection: its request line, Host (`host`
// unless the call has one of its own), the call's headers in order, Content-Length, and
// `Connection: close` when not `keep_alive`, then the body.
std::string http1_request(const http_call& call, std::string_view host, bool keep_alive);

// The verdict on a response to `call`: success (the body is the reply); unexpected_status(status)
// with "<status> <body>" as the reply text; or wrong_reply (the expected status, another body),
// the body as the text. `storage` holds the text it builds; it must outlive the reply.
struct verdict {
  std::error_code error;
  std::string_view text;
};
verdict judge_response(const http_call& call, int status, std::string_view body,
                       std::string& storage);

}  // namespace wirebench::http
