#include "user_request.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "wirebench/core/error.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/core/status_error.hpp"

namespace wirebench::http {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);  // header names are tokens: ASCII letters fold so
         });
}

}  // namespace

const std::string* find_header(const http_call& call, std::string_view name) {
  for (const auto& [n, v] : call.headers)
    if (iequals(n, name)) return &v;
  return nullptr;
}

void check_user_headers(const http_call& call, bool http2) {
  for (const auto& [name, value] : call.headers) {
    if (iequals(name, "content-length") || iequals(name, "transfer-encoding"))
      throw setting_error("header", "'" + name + "': wirebench sends the body with its own " +
                                        "Content-Length");
    if (!http2) continue;
    for (const std::string_view banned : {"connection", "keep-alive", "proxy-connection", "upgrade"})
      if (iequals(name, banned))
        throw setting_error("header", "'" + name + "': HTTP/2 forbids connection-specific " +
                                          "headers (RFC 9113 8.2.2)");
    if (iequals(name, "te") && value != "trailers")
      throw setting_error("header", "'TE: " + value + "': HTTP/2 allows only 'TE: trailers'");
  }
}

bool sends_content_length(const http_call& call) {
  return !call.body.empty() || call.method == "POST" || call.method == "PUT" || call.method == "PATCH";
}

std::string http1_request(const http_call& call, std::string_view host, bool keep_alive) {
  std::string out = call.method + " " + call.target + " HTTP/1.1\r\n";
  if (find_header(call, "host") == nullptr) out.append("Host: ").append(host).append("\r\n");
  for (const auto& [name, value] : call.headers) out.append(name).append(": ").append(value).append("\r\n");
  if (sends_content_length(call))
    out.append("Content-Length: ").append(std::to_string(call.body.size())).append("\r\n");
  if (!keep_alive && find_header(call, "connection") == nullptr) out.append("Connection: close\r\n");
  out.append("\r\n").append(call.body);
  return out;
}

verdict judge_response(const http_call& call, int status, std::string_view body,
                       std::string& storage) {
  if (status != call.expect_status) {
    char digits[8];
    const auto end = std::to_chars(digits, digits + sizeof digits, status).ptr;
    storage.assign(digits, end);
    if (!body.empty()) storage.append(" ").append(body);
    return {unexpected_status(status), storage};
  }
  if (call.expect_body && body != *call.expect_body) return {errc::wrong_reply, body};
  return {{}, body};
}

}  // namespace wirebench::http
