// HTTP/1.1 server: llhttp through http1::parser on our transport. Keep-alive, pipelining (replies
// in request order: each is answered as it is parsed), Content-Length and chunked request bodies.
// Limits answer 431/413/400 and close that connection; the others are not affected.
#include "http1_backend.hpp"
#include "http1_parser.hpp"
#include "../http_common/greet_api.hpp"
#include "wirebench/core/error.hpp"
#include "../common/backend_support.hpp"

namespace wirebench::http1 {
namespace {

std::string response(int status, std::string_view body, bool keep_alive) {
  std::string out;
  out.reserve(128 + body.size());
  out.append("HTTP/1.1 ").append(std::to_string(status)).append(" ");
  out.append(http::reason_phrase(status)).append("\r\n");
  out.append("Server: wirebench\r\nContent-Type: application/json\r\nContent-Length: ");
  out.append(std::to_string(body.size())).append("\r\n");
  if (!keep_alive) out.append("Connection: close\r\n");
  out.append("\r\n").append(body);
  return out;
}

class session final : public connection_handler {
 public:
  session(stream_server& server, const limits& l) : server_(server), parser_(parser::kind::request, l) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    const std::error_code ec = parser_.parse(data);
    std::uint64_t served = 0;
    for (message& m : parser_.messages()) {
      const auto r = http::handle_greet(m.method, m.target, m.body);
      c.send({}, response(r.status, r.body, m.keep_alive), {});
      ++served;
      if (!m.keep_alive) {  // the client asked to close: answer, flush, close
        error = errc::peer_closed;
        break;
      }
    }
    parser_.release_messages();
    if (served != 0) server_.count_requests(served);
    if (ec && !error) {
      const std::string why = "{\"error\":\"" + std::string(parser_.error_reason()) + "\"}";
      c.send({}, response(parser_.error_status(), why, false), {});
      error = ec;
    }
    return data.size();  // the parser copies what it keeps
  }
  void on_close(connection&, std::error_code) override {}
  bool mid_frame() const override { return parser_.mid_message(); }

 private:
  stream_server& server_;
  parser parser_;
};

}  // namespace

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  limits l;
  l.max_body_bytes = config.max_frame_bytes;
  // Each parser keeps what it needs of a partial message itself: a small read buffer will do.
  return std::make_unique<session_server>(transport_config(config, "http1-srv", 64 * 1024),
                                          [l](stream_server& s) { return std::make_unique<session>(s, l); });
}

}  // namespace wirebench::http1
