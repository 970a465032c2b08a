// The RPC client codec on HTTP/1.1 (`connect-h1`, `grpc-web-h1`): the calls of rpc_calls.hpp
// written as HTTP/1.1 requests (llhttp reads the responses: ../http1/http1_parser.hpp) on a
// keep-alive connection, pipelined as deep as the engine asks, answered in order. Each request:
// POST PATH HTTP/1.1, Host, the wire's headers and the call's metadata, Content-Length, the body
// (every body here is whole when it is sent). A response's status, content type and the headers
// the wire reads make its verdict, as on HTTP/2. A response that closes the connection sends the
// calls behind it to a new one (the server did not read them); a close between responses sends
// none again: RPCs are POSTs, and may not be repeated (RFC 9112 §9.3.1). Sans-IO.
#include <deque>

#include "grpc_client_codec.hpp"
#include "rpc_calls.hpp"
#include "../http/ascii_case.hpp"
#include "../http1/http1_response_codec.hpp"
#include "wirebench/codec/bytes.hpp"

namespace wirebench::grpc_wire {
namespace {

class rpc_http1_client_codec final : public http1::response_codec {
 public:
  explicit rpc_http1_client_codec(const grpc_client_config& config)
      : response_codec(http1::limits{.max_header_bytes = 16 * 1024, .max_headers = 64,
                                     .max_body_bytes = rpc_calls::max_body_of(config)},
                       /*keep_headers=*/true, rpc_calls::idempotent),
        calls_(config),
        authority_(config.authority),
        max_body_(rpc_calls::max_body_of(config)) {}

  std::error_code encode(std::uint32_t, std::string_view name, gather_queue& out) override {
    rpc_calls::call c;
    if (const std::error_code ec = calls_.prepare(name, body_, c)) return ec;
    requests_.push_back(c.request);  // which request of the mix each response answers, in order
    request_.clear();
    request_.append("POST ").append(c.path).append(" HTTP/1.1\r\nHost: ").append(authority_).append("\r\n");
    for (const nghttp2_nv& h : *c.headers) {
      request_.append(reinterpret_cast<const char*>(h.name), h.namelen).append(": ");
      request_.append(reinterpret_cast<const char*>(h.value), h.valuelen).append("\r\n");
    }
    request_.append("Content-Length: ").append(std::to_string(body_.size())).append("\r\n\r\n").append(body_);
    out.append_bytes(as_bytes(request_));
    return {};
  }

 private:
  void replies_read() override { texts_used_ = 0; }
  void closing() override { requests_.clear(); }

  // A chunked body of envelopes (gRPC-Web's, a Connect stream's) whose next envelope declares
  // more than the body may hold is refused at that envelope's header, not after its bytes have
  // come (or at the timeout, from a server that sends no more). A body with a Content-Length is
  // bounded by it (the parser refuses one over the limit) and read whole. Each envelope is judged
  // once: `judged_` is where the next begins (a server trickling a byte per read costs no rescan).
  std::error_code judge_arriving(const http1::message& m) override {
    const std::string_view type = m.header("content-type");
    const bool enveloped = (type.find("grpc-web") != std::string_view::npos || type.find("connect+") != std::string_view::npos) &&
                           type.find("text") == std::string_view::npos;  // base64: judged whole
    if (!enveloped || !m.header("content-length").empty()) return {};
    if (judged_ > m.body.size()) judged_ = 0;  // another response (the last one's end was missed)
    std::string_view body = std::string_view(m.body).substr(judged_);
    while (body.size() >= 5) {
      const std::uint64_t length = (std::uint64_t{static_cast<unsigned char>(body[1])} << 24) |
                                   (std::uint64_t{static_cast<unsigned char>(body[2])} << 16) |
                                   (std::uint64_t{static_cast<unsigned char>(body[3])} << 8) |
                                   std::uint64_t{static_cast<unsigned char>(body[4])};
      if (5 + length > max_body_) return make_error_code(errc::frame_too_long);
      if (body.size() < 5 + length) break;
      body.remove_prefix(5 + length);
      judged_ += 5 + length;
    }
    return {};
  }

  codec_reply reply_to(http1::message& m) override {
    judged_ = 0;  // the next response's envelopes start at its body's start
    rpc_response r{.http_status = m.status, .content_type = {}, .encoding = {}, .header_status = {},
                   .header_message = {}, .body = m.body};
    for (const auto& [name, value] : m.headers) {
      lowered_.assign(name);
      for (char& c : lowered_) c = http::ascii_lower(c);
      if (lowered_ == "content-type") r.content_type = value;
      switch (calls_.wire().response_header_slot(lowered_)) {
        case 0: r.encoding = value; break;
        case 1: r.header_status = parse_status(value).value_or(status_code::unknown); break;
        case 2: r.header_message = value; break;
        default: break;
      }
    }
    const std::size_t request = requests_.empty() ? 0 : requests_.front();
    if (!requests_.empty()) requests_.pop_front();
    std::string& text = next_text();
    return calls_.verdict(0, request, r, text, next_text());
  }

  // A string for one reply's text or why, kept with its capacity from one decode to the next.
  std::string& next_text() {
    if (texts_used_ == texts_.size()) texts_.emplace_back();
    return texts_[texts_used_++];
  }

  rpc_calls calls_;
  std::string authority_;
  std::size_t max_body_;              // a response body's limit (the reply limit, and framing)
  std::size_t judged_ = 0;            // judge_arriving: the arriving body's envelopes up to here
  std::deque<std::size_t> requests_;  // the requests sent and not yet answered, oldest first
  std::string body_, request_;        // one request's body, and the whole of it (capacity kept)
  std::string lowered_;               // a response header's name, lower-case
  std::deque<std::string> texts_;     // replies' texts (deque: stable addresses)
  std::size_t texts_used_ = 0;
};

}  // namespace

std::unique_ptr<client_codec> make_rpc_http1_client_codec(const grpc_client_config& config) {
  return std::make_unique<rpc_http1_client_codec>(config);
}

}  // namespace wirebench::grpc_wire
