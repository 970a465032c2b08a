// HTTP/1.1 server: llhttp through http1::parser on our transport. Keep-alive, pipelining (replies
// in request order: each is answered as it is parsed), Content-Length and chunked request bodies.
// Limits answer 431/413/400 and close that connection; the others are not affected. Every
// response carries Date; `Expect: 100-continue` is answered as soon as the headers are in.
#include <charconv>

#include "http1_backend.hpp"
#include "http1_parser.hpp"
#include "../http_common/greet_api.hpp"
#include "../http_common/http_date.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "../common/greet_server.hpp"

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

class session : public stream_session {
 public:
  using settings = limits;
  // Each parser keeps what it needs of a partial message itself: a small read buffer will do.
  static std::size_t max_read_bytes(const settings&) { return 64 * 1024; }
  explicit session(const settings& l) : parser_(parser::kind::request, l) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    const std::error_code ec = parser_.parse(data);
    out_.clear();
    std::uint64_t served = 0;
    const std::size_t count = parser_.messages().size();
    for (message& m : parser_.messages()) {
      http::handle_greet(m.method, m.target, m.body, answer_);
      // A graceful stop's last read: its last answer says the connection closes after it.
      const bool last_before_stop = closing_ && served + 1 == count;
      append_response(out_, answer_, m.keep_alive && !last_before_stop);
      ++served;
      if (!m.keep_alive) {  // the client asked to close: answer, flush, close
        error = errc::peer_closed;
        break;
      }
      if (last_before_stop) {
        error = errc::shutting_down;  // nothing after a Connection: close is read
        break;
      }
    }
    parser_.release_messages();
    count_requests(served);
    if (ec && !error) {
      answer_.status = parser_.error_status();
      answer_.body.assign("{\"error\":\"").append(parser_.error_reason()).append("\"}");
      answer_.send_body = true;
      append_response(out_, answer_, false);
      error = ec;
    } else if (!error && parser_.take_continue()) {
      out_.append("HTTP/1.1 100 Continue\r\n\r\n");  // after the answers to earlier requests
    }
    if (!out_.empty()) {  // every answer of this read in one copy into the connection's queue
      c.outbox().append_bytes(as_bytes(out_));
      c.request_flush();
    }
    return data.size();  // the parser copies what it keeps
  }
  void on_close(connection&, std::error_code) override {}
  bool mid_frame() const override { return parser_.mid_message(); }
  // A graceful stop: the answers to the requests read before it carry `Connection: close`.
  void on_drain(connection&) override { closing_ = true; }

 private:
  bool closing_ = false;
  parser parser_;
  http::api_response answer_;  // reused by every request
  std::string out_;            // this read's answers
};

}  // namespace

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  limits l;
  l.max_body_bytes = config.max_frame_bytes;
  return std::make_unique<greet_server<session>>(config, "http1-srv", l, tls_alpn);
}

}  // namespace wirebench::http1
