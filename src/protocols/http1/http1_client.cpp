// HTTP/1.1 client: an HTTP/1.1 codec on the client engine, replies in request order (FIFO).
// Pipelining is the engine's in-flight cap per connection (depth). A response that says
// `Connection: close` ends its connection: the engine dials a new one, and requests pipelined
// behind that response (which the server did not process) are sent again there. Without
// persistence every request says `Connection: close` itself, so each call gets a connection.
// With user calls (client_config::calls) every call sends the user's request (in a mix, the one
// its payload names), built once per connection (its placeholders filled in per call), and the
// response is judged by that request's status and body (user_request.hpp) instead of read as a
// greeting.
#include <deque>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "http1_backend.hpp"
#include "http1_parser.hpp"
#include "http1_response_codec.hpp"
#include "../user_call/in_order_requests.hpp"
#include "../http/greet_api.hpp"
#include "../http/user_request.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::http1 {
namespace {

class http1_client_codec final : public response_codec {
 public:
  // `calls`: the user's requests (several: a mix), or empty for the greet call.
  http1_client_codec(std::string host, std::size_t max_body, bool keep_alive,
                     std::shared_ptr<const std::vector<user_call>> calls)
      : response_codec(limits{16 * 1024, 64, max_body}, /*keep_headers=*/false, /*idempotent=*/true),
        host_(std::move(host)),
        keep_alive_(keep_alive),
        calls_(std::move(calls)),
        user_requests_(*calls_,
                       [this](const http_call& h) {
                         return http::http1_request(h, h.authority.empty() ? host_ : h.authority, keep_alive_);
                       }) {
    bool idempotent = true;  // the greet call is a GET
    for (const user_call& call : *calls_) {
      const http_call& h = *call.as<http_call>();
      // client_codecs() refuses a mix of HEAD and other methods: the parser is told once.
      responses().expect_bodiless_responses(h.method == "HEAD");
      // RFC 9110 §9.2.2: the methods whose requests may be repeated with the same effect.
      idempotent = idempotent && (h.method == "GET" || h.method == "HEAD" || h.method == "OPTIONS" ||
                                  h.method == "TRACE" || h.method == "PUT" || h.method == "DELETE");
    }
    set_idempotent(idempotent);
  }

  std::error_code encode(std::uint32_t, std::string_view name, gather_queue& out) override {
    if (!user_requests_.empty()) return user_requests_.append(name, out);  // a user request
    request_.clear();
    append_greet_request(request_, name, host_, keep_alive_);
    out.append_bytes(as_bytes(request_));
    return {};
  }

 private:
  void replies_read() override {
    storage_.clear();
    texts_used_ = 0;
  }
  codec_reply reply_to(message& m) override {
    if (!user_requests_.empty()) {
      const auto [ec, text] = http::judge_response(user_requests_.answered(), m.status, m.body, next_text());
      return {0, ec, text};
    }
    return greet_reply(m);
  }
  codec_reply greet_reply(const message& m) {
    std::string_view greeting;
    if (m.status == 200 && http::parse_greeting(m.body, greeting, storage_.emplace_back()))
      return {0, {}, greeting};
    if (m.status == 200) return {0, errc::wrong_reply, {}};
    std::string& why = storage_.emplace_back(std::to_string(m.status));
    why.append(" ").append(m.body);
    return {0, errc::remote_error, why};
  }
  // A string for one reply's text, kept with its capacity from one decode to the next: a run of
  // failed calls (a 404 path) allocates nothing once warm.
  std::string& next_text() {
    if (texts_used_ == texts_.size()) texts_.emplace_back();
    return texts_[texts_used_++];
  }

  std::string host_;
  bool keep_alive_;
  std::shared_ptr<const std::vector<user_call>> calls_;  // empty: the greet call
  in_order_requests<http_call> user_requests_;           // theirs, in order
  std::string request_;  // the greet request's bytes, capacity reused
  std::deque<std::string> storage_;  // greetings that needed unescaping, error texts
  std::deque<std::string> texts_;    // a user call's reply texts (deque: stable addresses)
  std::size_t texts_used_ = 0;
};

}  // namespace

std::string host_header(const endpoint& where) {
  if (!where.is_tcp()) return "localhost";
  return where.address.find(':') != std::string::npos
             ? "[" + where.address + "]:" + std::to_string(where.port)
             : where.address + ":" + std::to_string(where.port);
}

// Literals as string_views: their lengths are known, so no strlen runs per call whether or not
// the compiler inlines append(const char*) here (which varied with the build's unity batches).
void append_greet_request(std::string& out, std::string_view name, const std::string& host,
                          bool keep_alive) {
  using namespace std::string_view_literals;
  out.append("GET "sv);
  http::append_greet_target(out, name);
  out.append(" HTTP/1.1\r\nHost: "sv).append(host).append("\r\n"sv);
  if (!keep_alive) out.append("Connection: close\r\n"sv);
  out.append("\r\n"sv);
}

client_codec_factory client_codecs(const client_config& config, connection_use use) {
  std::size_t heads = 0;
  for (const user_call& call : config.calls) {
    http::check_user_headers(*call.as<http_call>(), /*http2=*/false);
    heads += call.as<http_call>()->method == "HEAD";
  }
  // A response to HEAD has headers only, which the parser must know before it reads one.
  if (heads != 0 && heads != config.calls.size())
    throw std::invalid_argument("a mix of HEAD and other methods: HTTP/1.1 responses to HEAD "
                                "carry no body, and this client reads them all one way");
  auto calls = std::make_shared<const std::vector<user_call>>(config.calls);
  return [host = host_header(config.connect), max = config.max_frame_bytes,
          keep = use == connection_use::persistent, calls] {
    return std::make_unique<http1_client_codec>(host, max, keep, calls);
  };
}

}  // namespace wirebench::http1
