// The `http2` protocol's client codec: REST on the HTTP/2 client core (h2_client_core.hpp). Every
// call is GET /greet?name=...; with TLS on, the registry puts its TLS layer
// (tls_client_codec.hpp, ALPN h2 required) under this codec. With a user call
// (client_config::call) every stream sends the user's request instead (its method, path, headers
// and body, laid out once per connection and copied into the stream's record with the
// placeholders filled in), and the response is judged by its status and body.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "h2_backend.hpp"
#include "h2_client_core.hpp"
#include "../common/backend_support.hpp"
#include "../http_common/greet_api.hpp"
#include "../http_common/user_request.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::http2 {
namespace {

class rest_client_codec final : public client_core {
 public:
  // `call`: the user's request, or null for the greet call.
  // `https`: TLS is on under this codec (the registry's layer): requests say :scheme https.
  rest_client_codec(std::string authority, std::size_t max_body, bool https,
                    std::shared_ptr<const user_call> call)
      : client_core(max_body),
        authority_(std::move(authority)),
        scheme_(https ? "https" : "http"),
        call_(std::move(call)) {
    if (call_) lay_out_request();
  }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    client_stream& s = take_stream(id);
    if (call_) return submit_user_request(s);
    http::append_greet_target(s.path, name);
    // The values live in the stream record (or this codec) until the stream closes: no copies.
    const nghttp2_nv headers[] = {static_header(":method", "GET"), static_header(":scheme", scheme_),
                                  static_header(":authority", authority_),
                                  static_header(":path", s.path)};
    return submit(s, headers);
  }

 private:
  // Where one value lies in request_template_ (and so in every stream's copy of it).
  struct span_at {
    std::size_t offset = 0, size = 0;
  };

  // Once per connection: the user's request as one string (path, each header value, body), the
  // placeholders in it, and the header names (lowercase, as HTTP/2 requires).
  void lay_out_request() {
    const http_call& h = *call_->http();
    auto add = [this](std::string_view value) {
      span_at at{request_template_.size(), value.size()};
      request_template_.append(value);
      return at;
    };
    path_at_ = add(h.target);
    if (const std::string* host = http::find_header(h, "host")) authority_ = *host;
    else if (!h.authority.empty()) authority_ = h.authority;
    for (const auto& [name, value] : h.headers) {
      std::string lower = name;
      for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
      if (lower == "host") continue;  // it is :authority
      header_names_.push_back(std::move(lower));
      header_at_.push_back(add(value));
    }
    if (http::sends_content_length(h)) content_length_ = std::to_string(h.body.size());
    body_at_ = add(h.body);
    filler_.emplace(request_template_, call_->keyspace, next_placeholder_seed());
  }

  std::error_code submit_user_request(client_stream& s) {
    const http_call& h = *call_->http();
    s.request.assign(request_template_);
    filler_->fill(s.request);
    auto value = [&s](span_at at) { return std::string_view(s.request).substr(at.offset, at.size); };
    headers_.clear();
    headers_.push_back(static_header(":method", h.method));
    headers_.push_back(static_header(":scheme", scheme_));
    headers_.push_back(static_header(":authority", authority_));
    headers_.push_back(static_header(":path", value(path_at_)));
    for (std::size_t i = 0; i < header_names_.size(); ++i)
      headers_.push_back(static_header(header_names_[i], value(header_at_[i])));
    if (!content_length_.empty()) headers_.push_back(static_header("content-length", content_length_));
    s.body_at = body_at_.offset;
    s.body_size = body_at_.size;
    return submit(s, headers_);
  }

  codec_reply reply_for(client_stream& s) override {
    if (call_) {
      const auto [ec, text] = http::judge_response(*call_->http(), s.status, s.body, s.text);
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
  std::shared_ptr<const user_call> call_;  // null: the greet call
  std::string request_template_;           // a user call's values and body, laid out once
  span_at path_at_, body_at_;
  std::vector<std::string> header_names_;  // lowercase
  std::vector<span_at> header_at_;
  std::string content_length_;             // "" when the request has none
  std::optional<random_int_filler> filler_;
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
  std::shared_ptr<const user_call> call;
  if (config.call) {
    http::check_user_headers(*config.call->http(), /*http2=*/true);
    call = std::make_shared<const user_call>(*config.call);
  }
  return [authority = authority_for(config.connect), max = config.max_frame_bytes,
          https = config.tls.enabled, call] {
    return std::make_unique<rest_client_codec>(authority, max, https, call);
  };
}

}  // namespace wirebench::http2
