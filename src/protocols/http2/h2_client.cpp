// The `http2` protocol's client codec: REST on the HTTP/2 client core (h2_client_core.hpp). Every
// call is GET /greet?name=...; with TLS on, the registry puts its TLS layer
// (tls_client_codec.hpp, ALPN h2 required) under this codec. With user calls
// (client_config::calls) every stream sends the user's request instead (in a mix, the one its
// payload names: its method, path, headers and body, laid out once per connection and copied
// into the stream's record with the placeholders filled in), and the response is judged by that
// request's status and body.
#include <memory>
#include <string>
#include <vector>

#include "h2_backend.hpp"
#include "h2_client_core.hpp"
#include "../http/greet_api.hpp"
#include "../http/user_request.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::http2 {
namespace {

class rest_client_codec final : public client_core {
 public:
  // `calls`: the user's requests (several: a mix), or empty for the greet call.
  // `https`: TLS is on under this codec (the registry's layer): requests say :scheme https.
  rest_client_codec(std::string authority, std::size_t max_body, bool https,
                    std::shared_ptr<const std::vector<user_call>> calls)
      : client_core(max_body),
        authority_(std::move(authority)),
        scheme_(https ? "https" : "http"),
        calls_(std::move(calls)) {
    for (const user_call& call : *calls_) templates_.push_back(lay_out_request(call));
  }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    if (!templates_.empty()) {
      const auto index = request_index(name, templates_.size());
      if (!index) return make_error_code(errc::invalid_argument);
      return submit_user_request(take_stream(id), *index);
    }
    client_stream& s = take_stream(id);
    http::append_greet_target(s.path, name);
    // The values live in the stream record (or this codec) until the stream closes: no copies.
    const nghttp2_nv headers[] = {static_header(":method", "GET"), static_header(":scheme", scheme_),
                                  static_header(":authority", authority_),
                                  static_header(":path", s.path)};
    return submit(s, headers);
  }

 private:
  // Where one value lies in a request's bytes (and so in every stream's copy of them).
  struct span_at {
    std::size_t offset = 0, size = 0;
  };
  // One user request, laid out once per connection: its values (path, each header value, body)
  // as one string, the placeholders in it, and the header names (lowercase, as HTTP/2 requires).
  struct request_template {
    const http_call* call;
    std::string authority;
    std::string bytes;
    span_at path_at, body_at;
    std::vector<std::string> header_names;
    std::vector<span_at> header_at;
    std::string content_length;  // "" when the request has none
    placeholder_filler filler;
  };

  request_template lay_out_request(const user_call& call) const {
    const http_call& h = *call.as<http_call>();
    std::string bytes;
    auto add = [&bytes](std::string_view value) {
      span_at at{bytes.size(), value.size()};
      bytes.append(value);
      return at;
    };
    const span_at path_at = add(h.target);
    std::string authority = authority_;
    if (const std::string* host = http::find_header(h, "host")) authority = *host;
    else if (!h.authority.empty()) authority = h.authority;
    std::vector<std::string> names;
    std::vector<span_at> values;
    for (const auto& [name, value] : h.headers) {
      std::string lower = name;
      for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
      if (lower == "host") continue;  // it is :authority
      names.push_back(std::move(lower));
      values.push_back(add(value));
    }
    std::string content_length = http::sends_content_length(h) ? std::to_string(h.body.size()) : "";
    const span_at body_at = add(h.body);
    placeholder_filler filler(bytes, call.keyspace, next_placeholder_seed());
    return {&h, std::move(authority), std::move(bytes), path_at, body_at, std::move(names),
            std::move(values), std::move(content_length), std::move(filler)};
  }

  std::error_code submit_user_request(client_stream& s, std::size_t index) {
    request_template& t = templates_[index];
    s.user_request = index;
    s.request.assign(t.bytes);
    t.filler.fill(s.request);
    auto value = [&s](span_at at) { return std::string_view(s.request).substr(at.offset, at.size); };
    headers_.clear();
    headers_.push_back(static_header(":method", t.call->method));
    headers_.push_back(static_header(":scheme", scheme_));
    headers_.push_back(static_header(":authority", t.authority));
    headers_.push_back(static_header(":path", value(t.path_at)));
    for (std::size_t i = 0; i < t.header_names.size(); ++i)
      headers_.push_back(static_header(t.header_names[i], value(t.header_at[i])));
    if (!t.content_length.empty()) headers_.push_back(static_header("content-length", t.content_length));
    s.body_at = t.body_at.offset;
    s.body_size = t.body_at.size;
    return submit(s, headers_);
  }

  codec_reply reply_for(client_stream& s) override {
    if (!templates_.empty()) {
      const http_call& call = *templates_[s.user_request].call;
      const auto [ec, text] = http::judge_response(call, s.status, s.body, s.text);
      return {s.call, ec, text};
    }
    std::string_view greeting;
    if (s.status == 200 && http::parse_greeting(s.body, greeting, kept()))
      return {s.call, {}, greeting};
    if (s.status == 200) return {s.call, errc::wrong_reply, {}};
    std::string& why = kept();
    why.append(std::to_string(s.status)).append(" ").append(s.body);
    return {s.call, errc::remote_error, why};
  }

  std::string authority_;
  std::string_view scheme_;  // "https" under TLS, else "http"
  std::shared_ptr<const std::vector<user_call>> calls_;  // empty: the greet call
  std::vector<request_template> templates_;              // one per user request
  std::vector<nghttp2_nv> headers_;        // one request's, rebuilt per call (capacity kept)
};

}  // namespace

std::string authority_for(const endpoint& where) {
  if (!where.is_tcp()) return "localhost";
  return where.address.find(':') != std::string::npos
             ? "[" + where.address + "]:" + std::to_string(where.port)
             : where.address + ":" + std::to_string(where.port);
}

client_codec_factory client_codecs(const client_config& config) {
  for (const user_call& call : config.calls) http::check_user_headers(*call.as<http_call>(), /*http2=*/true);
  auto calls = std::make_shared<const std::vector<user_call>>(config.calls);
  return [authority = authority_for(config.connect), max = config.max_frame_bytes,
          https = config.tls.enabled, calls] {
    return std::make_unique<rest_client_codec>(authority, max, https, calls);
  };
}

}  // namespace wirebench::http2
