// HTTP/1.1 server codec: llhttp through http1::parser. Keep-alive, pipelining (ordered: replies
// in request order), Content-Length and chunked request bodies. GET/HEAD/POST /greet are calls
// for the application; other requests are answered here (404, 405, 400). Limits answer
// 431/413/400 and close that connection; the others are not affected. Every response carries
// Date; `Expect: 100-continue` is answered as soon as the headers are in, after the answers owed.
#include <charconv>
#include <deque>

#include "http1_backend.hpp"
#include "http1_parser.hpp"
#include "../http/greet_api.hpp"
#include "../http/http_date.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::http1 {
namespace {

// The whole response into `out` (reused: no allocation once warm). HEAD gets GET's headers and
// no body; a 405 names the allowed methods.
void append_response(std::string& out, const http::api_response& r, bool keep_alive) {
  char number[24];
  out.append("HTTP/1.1 ");
  out.append(number, std::to_chars(number, number + sizeof number, r.status).ptr);
  out.push_back(' ');
  out.append(http::reason_phrase(r.status));
  out.append("\r\nServer: wirebench\r\nDate: ");
  out.append(http::http_date());
  out.append("\r\nContent-Type: application/json\r\nContent-Length: ");
  out.append(number, std::to_chars(number, number + sizeof number, r.body.size()).ptr);
  if (r.status == 405) out.append("\r\nAllow: ").append(http::allowed_methods);
  if (!keep_alive) out.append("\r\nConnection: close");
  out.append("\r\n\r\n");
  if (r.send_body) out.append(r.body);
}

class server_codec_impl final : public server_codec {
 public:
  explicit server_codec_impl(const limits& l)
      : max_name_(l.max_body_bytes), parser_(parser::kind::request, l) {}

  bool ordered() const override { return true; }

  // The parser copies what it keeps: each read is parsed whole, once every message of the last
  // one has been handed out, and its messages handed out one per call.
  std::size_t decode(std::span<const std::byte> data, server_request& into, gather_queue& out,
                     std::error_code& error) override {
    std::size_t consumed = 0;
    if (parser_.ready() == 0 && !data.empty()) {
      parser_.release();
      parser_.feed(data);
      consumed = data.size();
      if (parser_.take_continue()) continue_due_ = true;
    }
    if (message* m = parser_.next(error)) {
      take(*m, into, error);
    } else if (error) {
      // After the answers to the requests before it: the error's, and the close.
      answer_.status = parser_.error_status();
      answer_.body.assign("{\"error\":\"").append(parser_.error_reason()).append("\"}");
      answer_.send_body = true;
      into.what = server_request::kind::notice;
      into.answer.clear();
      append_response(into.answer, answer_, false);
    } else if (continue_due_) {
      continue_due_ = false;
      into.what = server_request::kind::notice;
      into.answer.assign("HTTP/1.1 100 Continue\r\n\r\n");
    }
    (void)out;
    return consumed;
  }

  void encode_reply(std::uint64_t, bool ok, std::string_view body, gather_queue& out) override {
    const owed answer = owed_.front();
    owed_.pop_front();
    answer_.send_body = !answer.head;
    http::call_response(ok, body, answer_);
    out_.clear();
    append_response(out_, answer_, answer.keep_alive);
    out.append_bytes(as_bytes(out_));
  }

  // A graceful stop: the answer to the last request read before it carries Connection: close.
  void going_away(gather_queue&) override { closing_ = true; }
  bool mid_request() const override { return parser_.mid_message(); }
  // Each parser keeps what it needs of a partial message itself: a small read buffer will do.
  std::size_t max_read_bytes() const override { return 64 * 1024; }

 private:
  struct owed {
    bool head;        // no body
    bool keep_alive;  // false: Connection: close
  };

  void take(message& m, server_request& into, std::error_code& error) {
    const bool last_before_stop = closing_ && parser_.ready() == 0;
    const bool keep_alive = m.keep_alive && !last_before_stop;
    if (http::greet_call(m.method, m.target, m.body, max_name_, name_, answer_)) {
      into.what = server_request::kind::call;
      into.argument = name_;
      owed_.push_back({m.method == "HEAD", keep_alive});
    } else {
      into.what = server_request::kind::answered;
      into.answer.clear();
      append_response(into.answer, answer_, keep_alive);
    }
    if (!m.keep_alive) error = errc::peer_closed;  // the client asked to close: answer, then close
    else if (last_before_stop) error = errc::shutting_down;  // nothing after Connection: close
    // Either way the session closes: requests after it are not answered.
  }

  std::size_t max_name_;          // the longest greet name taken: the request limit
  parser parser_;
  bool continue_due_ = false;     // 100 Continue, once the answers before it are handed out
  bool closing_ = false;
  std::deque<owed> owed_;         // calls handed out and not yet answered, oldest first
  std::string name_;              // the call's argument, valid until the next decode
  http::api_response answer_;     // reused by every request
  std::string out_;               // one response
};

}  // namespace

server_codec_factory server_codecs(const server_config& config) {
  limits l;
  l.max_body_bytes = config.max_frame_bytes;
  return [l] { return std::make_unique<server_codec_impl>(l); };
}

}  // namespace wirebench::http1
