// HTTP/2 client: an nghttp2 codec on the client engine. Every call is a stream (GET
// /greet?name=...) on one connection (or C), matched by the call id kept with the stream. Streams
// beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS wait inside nghttp2 (they are not failed);
// a canceled call resets its stream. A stream the server refused unprocessed (REFUSED_STREAM, or
// above a GOAWAY's last-stream-id, which nghttp2 closes as refused) is reported as not processed,
// and the engine sends it again; a GOAWAY makes the engine dial a new connection. With TLS on,
// the registry puts its TLS layer (tls_client_codec.hpp, ALPN h2 required) under this codec.
// With a user call (client_config::call) every stream sends the user's request instead (its
// method, path, headers and body, laid out once per connection and copied into the stream's
// record with the placeholders filled in), and the response is judged by its status and body.
//
// nghttp2 encodes lazily: requests are submitted in encode() and serialized together in
// produce(), just before the connection's write, so a loop turn's requests share frames and one
// write. nghttp2's callbacks only record; replies are handed out when mem_recv has returned.
#include <algorithm>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "h2_backend.hpp"
#include "h2_util.hpp"
#include "../common/backend_support.hpp"
#include "../http_common/greet_api.hpp"
#include "../http_common/user_request.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::http2 {
namespace {

std::string authority_for(const endpoint& where) {
  if (!where.is_tcp()) return "localhost";
  return where.address.find(':') != std::string::npos
             ? "[" + where.address + "]:" + std::to_string(where.port)
             : where.address + ":" + std::to_string(where.port);
}

class h2_client_codec final : public client_codec {
 public:
  // `call`: the user's request, or null for the greet call.
  // `https`: TLS is on under this codec (the registry's layer): requests say :scheme https.
  h2_client_codec(std::string authority, std::size_t max_body, bool https,
                  std::shared_ptr<const user_call> call)
      : authority_(std::move(authority)),
        max_body_(max_body),
        scheme_(https ? "https" : "http"),
        call_(std::move(call)) {
    if (call_) lay_out_request();
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    callbacks_ptr callbacks(cb);
    nghttp2_session_callbacks_set_on_header_callback(cb, &h2_client_codec::on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &h2_client_codec::on_data_chunk);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, &h2_client_codec::on_frame_recv);
    nghttp2_session_callbacks_set_on_frame_send_callback(cb, &h2_client_codec::on_frame_send);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, &h2_client_codec::on_stream_close);
    nghttp2_session* s = nullptr;
    nghttp2_session_client_new(&s, cb, this);
    session_.reset(s);
  }

  reply_order order() const override { return reply_order::by_id; }
  bool may_refuse() const override { return true; }

  std::error_code open(gather_queue& out) override {
    nghttp2_submit_settings(session_.get(), NGHTTP2_FLAG_NONE, nullptr, 0);
    return flush(session_.get(), out);  // the preface
  }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue& out) override {
    stream& s = take_stream();
    s.call = id;
    if (call_) return submit_user_request(s);
    http::append_greet_target(s.path, name);
    // The values live in the stream record (or this codec) until the stream closes: no copies.
    constexpr auto flags = NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE;
    auto nv = [](std::string_view n, std::string_view v) {
      nghttp2_nv h = header(n, v);
      h.flags = flags;
      return h;
    };
    const nghttp2_nv headers[] = {nv(":method", "GET"), nv(":scheme", scheme_),
                                  nv(":authority", authority_), nv(":path", s.path)};
    (void)out;
    return submit(s, headers, 4, nullptr);
  }

  std::error_code produce(gather_queue& out) override {
    if (auto ec = flush(session_.get(), out)) return ec;
    return broken_ ? errc::protocol_error : std::error_code{};
  }

  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue& out,
                     std::error_code& error) override {
    recycle_delivered();
    const std::size_t consumed = data.size();
    const ssize_t rv = nghttp2_session_mem_recv(
        session_.get(), reinterpret_cast<const uint8_t*>(data.data()), data.size());
    if (rv < 0) error = errc::protocol_error;
    // SETTINGS acks, WINDOW_UPDATEs, PING replies; and any stream nghttp2 closes as it sends.
    if (auto ec = flush(session_.get(), out); ec && !error) error = ec;
    if (broken_ && !error) error = errc::protocol_error;
    // Streams closed since the last decode, here or while sending (refused after a GOAWAY).
    for (stream* s : refused_now_) finished_.push_back(s);
    refused_now_.clear();
    for (stream* s : finished_) into.replies.push_back(reply_for(*s));
    delivered_.swap(finished_);
    if (goaway_) into.going_away = true;
    return consumed;
  }

  bool cancel(std::uint32_t id, gather_queue&) override {
    for (const auto& s : streams_)
      if (s->in_use && s->call == id && s->id > 0)
        nghttp2_submit_rst_stream(session_.get(), NGHTTP2_FLAG_NONE, s->id, NGHTTP2_CANCEL);
    return true;  // the RST_STREAM goes out in produce()
  }

  bool mid_reply() const override { return false; }
  std::size_t max_read_bytes() const override { return 64 * 1024; }

 private:
  struct stream {
    std::uint32_t call = 0;
    int32_t id = -1;
    int status = 0;
    std::uint32_t error = 0;
    bool in_use = false;
    bool oversize = false;
    std::string path;  // the :path value, referenced by nghttp2 until the stream closes
    std::string body;
    // A user call: its request laid out as request_template_ (values and body, placeholders
    // filled), referenced by nghttp2 until the stream closes; how much of the body is sent; the
    // reply's text when the verdict builds one.
    std::string request;
    std::size_t body_sent = 0;
    std::string text;
  };

  // Where one value lies in request_template_ (and so in every stream's copy of it).
  struct span_at {
    std::size_t offset = 0, size = 0;
  };

  // Submits stream `s` with these headers (and a body from `body`, or none).
  std::error_code submit(stream& s, const nghttp2_nv* headers, std::size_t count,
                         const nghttp2_data_provider* body) {
    const int32_t sid = nghttp2_submit_request(session_.get(), nullptr, headers, count, body, &s);
    if (sid < 0) {  // out of stream ids on this connection: not sent, so not processed
      s.error = NGHTTP2_REFUSED_STREAM;
      refused_now_.push_back(&s);
      return {};
    }
    s.id = sid;
    return {};
  }

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

  std::error_code submit_user_request(stream& s) {
    const http_call& h = *call_->http();
    s.request.assign(request_template_);
    filler_->fill(s.request);
    auto nv = [](std::string_view n, std::string_view v) {
      nghttp2_nv x = header(n, v);
      x.flags = NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE;
      return x;
    };
    auto value = [&s](span_at at) { return std::string_view(s.request).substr(at.offset, at.size); };
    headers_.clear();
    headers_.push_back(nv(":method", h.method));
    headers_.push_back(nv(":scheme", scheme_));
    headers_.push_back(nv(":authority", authority_));
    headers_.push_back(nv(":path", value(path_at_)));
    for (std::size_t i = 0; i < header_names_.size(); ++i)
      headers_.push_back(nv(header_names_[i], value(header_at_[i])));
    if (!content_length_.empty()) headers_.push_back(nv("content-length", content_length_));
    if (body_at_.size == 0) return submit(s, headers_.data(), headers_.size(), nullptr);
    nghttp2_data_provider body{};
    body.source.ptr = &s;
    body.read_callback = &h2_client_codec::read_body;
    return submit(s, headers_.data(), headers_.size(), &body);
  }

  // nghttp2 asks for the next piece of a user call's body (while serializing, in produce()).
  static ssize_t read_body(nghttp2_session*, int32_t, uint8_t* buf, size_t length,
                           uint32_t* data_flags, nghttp2_data_source* source, void* user) {
    stream& s = *static_cast<stream*>(source->ptr);
    const span_at at = self(user).body_at_;
    const std::size_t n = std::min(length, at.size - s.body_sent);
    std::memcpy(buf, s.request.data() + at.offset + s.body_sent, n);
    s.body_sent += n;
    if (s.body_sent == at.size) *data_flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }

  // Stream records come from a pool and keep their strings' capacity: a steady load allocates
  // no record, path or body.
  stream& take_stream() {
    if (free_.empty()) {
      streams_.push_back(std::make_unique<stream>());
      free_.push_back(streams_.back().get());
    }
    stream* s = free_.back();
    free_.pop_back();
    s->in_use = true;
    s->id = -1;
    s->status = 0;
    s->error = 0;
    s->oversize = false;
    s->path.clear();
    s->body.clear();
    s->body_sent = 0;
    return *s;
  }
  // The replies handed out by the last decode are done with: their records go back to the pool.
  void recycle_delivered() {
    for (stream* s : delivered_) {
      s->in_use = false;
      free_.push_back(s);
    }
    delivered_.clear();
    storage_.clear();
  }

  codec_reply reply_for(stream& s) {
    if (s.error == NGHTTP2_REFUSED_STREAM) return {s.call, {}, {}, /*not_processed=*/true};
    if (s.oversize) return {s.call, errc::frame_too_long, {}};
    if (s.error != 0) return {s.call, errc::connection_closed, {}};  // reset by the server
    if (call_) {
      const auto [ec, text] = http::judge_response(*call_->http(), s.status, s.body, s.text);
      return {s.call, ec, text};
    }
    std::string_view greeting;
    if (s.status == 200 && http::parse_greeting(s.body, greeting, storage_.emplace_back()))
      return {s.call, {}, greeting};
    if (s.status == 200) return {s.call, errc::wrong_reply, {}};
    std::string& why = storage_.emplace_back(std::to_string(s.status));
    why.append(" ").append(s.body);
    return {s.call, errc::remote_error, why};
  }

  static h2_client_codec& self(void* p) { return *static_cast<h2_client_codec*>(p); }
  static stream* stream_of(nghttp2_session* session, int32_t id) {
    return static_cast<stream*>(nghttp2_session_get_stream_user_data(session, id));
  }

  static int on_header(nghttp2_session* session, const nghttp2_frame* frame, const uint8_t* name,
                       size_t namelen, const uint8_t* value, size_t valuelen, uint8_t, void*) {
    stream* s = stream_of(session, frame->hd.stream_id);
    if (s == nullptr || namelen != 7 || std::memcmp(name, ":status", 7) != 0) return 0;
    int status = 0;
    for (size_t i = 0; i < valuelen && value[i] >= '0' && value[i] <= '9'; ++i)
      status = status * 10 + (value[i] - '0');
    s->status = status;
    return 0;
  }
  static int on_data_chunk(nghttp2_session* session, uint8_t, int32_t stream_id,
                           const uint8_t* data, size_t len, void* user) {
    stream* s = stream_of(session, stream_id);
    if (s == nullptr) return 0;
    if (s->body.size() + len > self(user).max_body_) {
      s->oversize = true;
      nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_CANCEL);
      return 0;
    }
    s->body.append(reinterpret_cast<const char*>(data), len);
    return 0;
  }
  static int on_frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    if (frame->hd.type == NGHTTP2_GOAWAY) self(user).goaway_ = true;
    return 0;
  }
  // nghttp2 ends a session the server broke (a frame too large, a bad header block) with a GOAWAY
  // carrying the error, and then ignores all input: the connection is over, and the calls in
  // flight on it fail now rather than at their deadlines.
  static int on_frame_send(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    if (frame->hd.type == NGHTTP2_GOAWAY && frame->goaway.error_code != NGHTTP2_NO_ERROR)
      self(user).broken_ = true;
    return 0;
  }
  static int on_stream_close(nghttp2_session* session, int32_t stream_id, uint32_t error_code,
                             void* user) {
    stream* s = stream_of(session, stream_id);
    if (s == nullptr) return 0;
    s->error = error_code;
    self(user).finished_.push_back(s);
    return 0;
  }

  std::string authority_;
  std::size_t max_body_;
  std::string_view scheme_;  // "https" under TLS, else "http"
  std::vector<std::unique_ptr<stream>> streams_;  // every record made (stable addresses)
  std::vector<stream*> free_;
  std::vector<stream*> finished_;     // closed since the last decode
  std::vector<stream*> delivered_;    // handed out by the last decode: their bodies are viewed
  std::vector<stream*> refused_now_;  // could not even be submitted
  std::deque<std::string> storage_;   // greetings that needed unescaping, error texts
  std::shared_ptr<const user_call> call_;  // null: the greet call
  std::string request_template_;           // a user call's values and body, laid out once
  span_at path_at_, body_at_;
  std::vector<std::string> header_names_;  // lowercase
  std::vector<span_at> header_at_;
  std::string content_length_;             // "" when the request has none
  std::optional<random_int_filler> filler_;
  std::vector<nghttp2_nv> headers_;        // one request's, rebuilt per call (capacity kept)
  bool goaway_ = false;
  bool broken_ = false;  // we sent a GOAWAY with an error: the session is over
  session_ptr session_;  // last: it goes first, while the records its streams point to remain
};

}  // namespace

client_codec_factory client_codecs(const client_config& config) {
  std::shared_ptr<const user_call> call;
  if (config.call) {
    http::check_user_headers(*config.call->http(), /*http2=*/true);
    call = std::make_shared<const user_call>(*config.call);
  }
  return [authority = authority_for(config.connect), max = config.max_frame_bytes,
          https = config.tls.enabled, call] {
    return std::make_unique<h2_client_codec>(authority, max, https, call);
  };
}

}  // namespace wirebench::http2
