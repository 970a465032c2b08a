#pragma once
// The REST form of the greet call, shared by the HTTP/1.1 and HTTP/2 backends:
//   GET  /greet?name=NAME          -> 200 {"greeting":"hello, NAME"}
//   POST /greet  {"name": NAME}    -> 200 {"greeting":"hello, NAME"}
//   HEAD /greet?name=NAME          -> GET's status and headers, no body (RFC 9110 §9.3.2)
// Unknown path -> 404, another method -> 405 (with Allow), bad query or body -> 400; errors are
// {"error": ...}.
#include <string>
#include <string_view>

namespace wirebench::http {

struct api_response {
  int status = 0;
  std::string body;       // JSON; for HEAD, the body GET would have (its length is Content-Length)
  bool send_body = true;  // false for HEAD
};

// The methods /greet allows: a 405's Allow header (RFC 9110 §15.5.6).
inline constexpr std::string_view allowed_methods = "GET, HEAD, POST";

// The greet call a request makes: true with its `name` (storage reused: no allocation once warm);
// false when the request is none, with `refusal` its answer (404, 405, 400). Either way,
// `refusal.send_body` is false for HEAD.
// A name over `max_name_bytes` (the server's request limit) is refused too: 414 from a query,
// 413 from a body.
bool greet_call(std::string_view method, std::string_view target, std::string_view body,
                std::size_t max_name_bytes, std::string& name, api_response& refusal);
// The answer to a greet call whose reply the application gave: 200 {"greeting": reply}, or 500
// {"error": reply} when it failed. Keeps `out.send_body`.
void call_response(bool ok, std::string_view reply, api_response& out);

// Client helpers: the request target for GET (appended to `out`), and the greeting out of a 200
// response body (false if the body is not the expected JSON). `greeting` views `json` when the
// body is compact JSON with no escapes (what servers send: read without allocating), else
// `storage`, where the general JSON parse put it.
std::string greet_target(std::string_view name);
void append_greet_target(std::string& out, std::string_view name);
bool parse_greeting(std::string_view json, std::string_view& greeting, std::string& storage);

std::string_view reason_phrase(int status);

}  // namespace wirebench::http
