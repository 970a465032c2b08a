// HTTP/1.1 client: an HTTP/1.1 codec on the client engine, replies in request order (FIFO).
// Pipelining is the engine's in-flight cap per connection (depth). A response that says
// `Connection: close` ends its connection: the engine dials a new one, and requests pipelined
// behind that response (which the server did not process) are sent again there. Without
// persistence every request says `Connection: close` itself, so each call gets a connection.
#include <deque>

#include "http1_backend.hpp"
#include "http1_parser.hpp"
#include "../common/backend_support.hpp"
#include "../http_common/greet_api.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::http1 {
namespace {

class http1_client_codec final : public client_codec {
 public:
  http1_client_codec(std::string host, std::size_t max_body, bool keep_alive)
      : host_(std::move(host)),
        keep_alive_(keep_alive),
        parser_(parser::kind::response, limits{16 * 1024, 64, max_body}, /*keep_headers=*/false) {}

  reply_order order() const override { return reply_order::in_order; }
  bool may_refuse() const override { return true; }

  std::error_code encode(std::uint32_t, std::string_view name, gather_queue& out) override {
    request_.clear();
    append_greet_request(request_, name, host_, keep_alive_);
    out.append_bytes(as_bytes(request_));
    return {};
  }

  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue&,
                     std::error_code& error) override {
    parser_.release_messages();  // the bodies handed out by the last decode are done with
    storage_.clear();
    error = parser_.parse(data);
    for (message& m : parser_.messages()) {
      std::string_view greeting;
      if (m.status == 200 && http::parse_greeting(m.body, greeting, storage_.emplace_back())) {
        into.replies.push_back({0, {}, greeting});
      } else if (m.status == 200) {
        into.replies.push_back({0, errc::wrong_reply, {}});
      } else {
        std::string& why = storage_.emplace_back(std::to_string(m.status));
        why.append(" ").append(m.body);
        into.replies.push_back({0, errc::remote_error, why});
      }
      if (!m.keep_alive) {  // the server closes after this response: nothing behind it was read
        into.going_away = true;
        into.rest_not_processed = true;
        break;
      }
    }
    return data.size();  // the parser copies what it keeps
  }

  bool mid_reply() const override { return parser_.mid_message(); }
  std::size_t max_read_bytes() const override { return 64 * 1024; }

 private:
  std::string host_;
  bool keep_alive_;
  parser parser_;
  std::string request_;             // one request's bytes, capacity reused
  std::deque<std::string> storage_;  // greetings that needed unescaping, error texts
};

}  // namespace

std::string host_header(const endpoint& where) {
  if (!where.is_tcp()) return "localhost";
  return where.address.find(':') != std::string::npos
             ? "[" + where.address + "]:" + std::to_string(where.port)
             : where.address + ":" + std::to_string(where.port);
}

void append_greet_request(std::string& out, std::string_view name, const std::string& host,
                          bool keep_alive) {
  out.append("GET ");
  http::append_greet_target(out, name);
  out.append(" HTTP/1.1\r\nHost: ").append(host).append("\r\n");
  if (!keep_alive) out.append("Connection: close\r\n");
  out.append("\r\n");
}

client_codec_factory client_codecs(const client_config& config) {
  return [host = host_header(config.connect), max = config.max_frame_bytes,
          keep = config.persistent] { return std::make_unique<http1_client_codec>(host, max, keep); };
}

std::unique_ptr<protocol_client> make_client(const client_config& config) {
  return make_engine_client(config, 1, client_codecs(config));
}

}  // namespace wirebench::http1
