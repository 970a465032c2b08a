#pragma once
// The HTTP family's user call (user_call.hpp): any request, as curl and h2load send it, for the
// HTTP/1.1 and HTTP/2 clients (user_request.hpp builds and judges it). Its form
// (http_call_form.cpp) reads it from --url/--path, -X, -H, -d and the expectations, from
// "[METHOD] URL-or-/path" lines and from a workload file's entries.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wirebench {

struct user_call_form;

struct http_call {
  std::string method = "GET";
  std::string target = "/";  // origin form: /path?query, sent as given
  // The Host header (HTTP/1.1) or :authority (HTTP/2); "" = the endpoint the client dials.
  std::string authority;
  bool https = false;  // the URL said https:// (the client must then speak TLS)
  std::vector<std::pair<std::string, std::string>> headers;  // in order, as given
  std::string body;                                           // sent with Content-Length
  int expect_status = 200;                 // any other status fails the call (status_error.hpp)
  std::optional<std::string> expect_body = {};  // the whole body, byte for byte
  friend bool operator==(const http_call&, const http_call&) = default;
};

// The form the http1 and http2 entries name (protocol_capabilities::user_calls).
const user_call_form& form_of(const http_call*);
inline const user_call_form& http_call_form() { return form_of(static_cast<const http_call*>(nullptr)); }

}  // namespace wirebench
