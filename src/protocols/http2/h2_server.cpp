// HTTP/2 server (RFC 9113), cleartext with prior knowledge (h2c) or over TLS with ALPN h2:
// nghttp2's sans-IO server session fed by our connection (mem_recv) and drained into it
// (mem_send), with our sans-IO TLS channel between the two when TLS is on. Each request is answered when
// its stream ends (END_STREAM), with the same REST routes as HTTP/1.1. SETTINGS_MAX_CONCURRENT_
// STREAMS is configurable; nghttp2's flood protections stay on; a graceful stop sends GOAWAY.
#include <cstring>
#include <unordered_map>
#include <vector>

#include "h2_backend.hpp"
#include "h2_util.hpp"
#include "../http_common/greet_api.hpp"
#include "../tls/tls_channel.hpp"
#include "../tls/tls_context.hpp"
#include "wirebench/core/error.hpp"
#include "../common/backend_support.hpp"

namespace wirebench::http2 {
namespace {

struct stream {
  std::string method, path, body;
  std::string response;  // the JSON body being sent
  std::size_t sent = 0;
  std::string status, length;  // header values must outlive submit_response
};

class session final : public connection_handler {
 public:
  session(stream_server& server, const server_config& config, SSL_CTX* tls_context)
      : server_(server), max_body_(config.max_frame_bytes) {
    if (tls_context != nullptr)
      tls_ = std::make_unique<tls::tls_channel>(tls_context, tls::tls_channel::role::server, "", "h2");
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    callbacks_ptr callbacks(cb);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, &session::on_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(cb, &session::on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &session::on_data_chunk);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, &session::on_frame_recv);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, &session::on_stream_close);
    nghttp2_session* s = nullptr;
    nghttp2_session_server_new(&s, cb, this);
    session_.reset(s);
    std::vector<nghttp2_settings_entry> settings{
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, config.max_concurrent_streams}};
    if (config.stream_window_bytes != 0)
      settings.push_back({NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, config.stream_window_bytes});
    nghttp2_submit_settings(s, NGHTTP2_FLAG_NONE, settings.data(), settings.size());
    if (config.connection_window_bytes != 0)  // sent as a WINDOW_UPDATE on stream 0
      nghttp2_session_set_local_window_size(s, NGHTTP2_FLAG_NONE, 0,
                                            static_cast<int32_t>(config.connection_window_bytes));
  }

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    const std::size_t consumed = data.size();  // nghttp2 keeps what it needs of partial frames
    if ((error = unwrap(tls_.get(), data, plain_))) {
      flush(session_.get(), c, tls_.get());  // the alert, if TLS has one for the peer
      return consumed;
    }
    const ssize_t rv = nghttp2_session_mem_recv(
        session_.get(), reinterpret_cast<const uint8_t*>(data.data()), data.size());
    if (rv < 0) {
      error = errc::protocol_error;  // nghttp2 has queued a GOAWAY; it is flushed below
    }
    if (answered_ != 0) server_.count_requests(answered_);
    answered_ = 0;
    if (auto ec = flush(session_.get(), c, tls_.get()); ec && !error) error = ec;
    if (!error && !nghttp2_session_want_read(session_.get()) &&
        !nghttp2_session_want_write(session_.get()))
      error = errc::peer_closed;  // both sides said goodbye
    return consumed;
  }
  void on_close(connection&, std::error_code) override {}
  bool busy() const override { return !streams_.empty(); }
  void on_drain(connection& c) override {
    nghttp2_submit_goaway(session_.get(), NGHTTP2_FLAG_NONE,
                          nghttp2_session_get_last_proc_stream_id(session_.get()), NGHTTP2_NO_ERROR,
                          nullptr, 0);
    flush(session_.get(), c, tls_.get());
  }

 private:
  static session& self(void* p) { return *static_cast<session*>(p); }

  static int on_begin_headers(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
      self(user).streams_.try_emplace(frame->hd.stream_id);
    return 0;
  }
  static int on_header(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                       size_t namelen, const uint8_t* value, size_t valuelen, uint8_t, void* user) {
    auto it = self(user).streams_.find(frame->hd.stream_id);
    if (it == self(user).streams_.end()) return 0;
    const std::string_view n(reinterpret_cast<const char*>(name), namelen);
    const std::string_view v(reinterpret_cast<const char*>(value), valuelen);
    if (n == ":method") it->second.method = v;
    else if (n == ":path") it->second.path = v;
    return 0;
  }
  static int on_data_chunk(nghttp2_session* s, uint8_t, int32_t stream_id, const uint8_t* data,
                           size_t len, void* user) {
    auto it = self(user).streams_.find(stream_id);
    if (it == self(user).streams_.end() || !it->second.status.empty()) return 0;  // answered
    if (it->second.body.size() + len > self(user).max_body_) {
      self(user).respond(s, stream_id, it->second, {413, "{\"error\":\"body too large\"}"});
      return 0;
    }
    it->second.body.append(reinterpret_cast<const char*>(data), len);
    return 0;
  }
  static int on_frame_recv(nghttp2_session* s, const nghttp2_frame* frame, void* user) {
    if ((frame->hd.type == NGHTTP2_HEADERS || frame->hd.type == NGHTTP2_DATA) &&
        (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0) {
      auto it = self(user).streams_.find(frame->hd.stream_id);
      if (it != self(user).streams_.end() && it->second.status.empty())
        self(user).respond(s, frame->hd.stream_id, it->second,
                           http::handle_greet(it->second.method, it->second.path, it->second.body));
    }
    return 0;
  }
  static int on_stream_close(nghttp2_session*, int32_t stream_id, uint32_t, void* user) {
    self(user).streams_.erase(stream_id);
    return 0;
  }
  static ssize_t read_body(nghttp2_session*, int32_t, uint8_t* buf, size_t length, uint32_t* flags,
                           nghttp2_data_source* source, void*) {
    auto* st = static_cast<stream*>(source->ptr);
    const std::size_t n = std::min(length, st->response.size() - st->sent);
    std::memcpy(buf, st->response.data() + st->sent, n);
    st->sent += n;
    if (st->sent == st->response.size()) *flags |= NGHTTP2_DATA_FLAG_EOF;
    return static_cast<ssize_t>(n);
  }

  void respond(nghttp2_session* s, int32_t stream_id, stream& st, http::api_response r) {
    st.response = std::move(r.body);
    st.status = std::to_string(r.status);
    st.length = std::to_string(st.response.size());
    const nghttp2_nv headers[] = {header(":status", st.status),
                                  header("content-type", "application/json"),
                                  header("content-length", st.length)};
    nghttp2_data_provider body{};
    body.source.ptr = &st;  // the stream outlives its DATA frames (erased on close)
    body.read_callback = &session::read_body;
    nghttp2_submit_response(s, stream_id, headers, 3, &body);
    ++answered_;
  }

  stream_server& server_;
  std::size_t max_body_;
  std::unique_ptr<tls::tls_channel> tls_;  // null in cleartext
  std::string plain_;                      // what TLS decrypted of the last read
  session_ptr session_;
  std::unordered_map<int32_t, stream> streams_;
  std::uint64_t answered_ = 0;
};

class server final : public protocol_server {
 public:
  explicit server(const server_config& c) : config_(c) {
    if (c.tls.enabled) tls_context_ = tls::make_server_context(c.tls, "h2");
    // Each parser keeps what it needs of a partial message itself: a small read buffer will do.
    const stream_server_config sc = transport_config(c, "h2-srv", 64 * 1024);
    server_ = std::make_unique<stream_server>(sc, [this](stream_server& server) {
      return std::make_unique<session>(server, config_, tls_context_.get());
    });
  }
  endpoint local_endpoint() const override { return server_->local_endpoint(); }
  void stop() override { server_->stop(); }
  server_stats stats() const override { return server_->stats(); }

 private:
  server_config config_;
  tls::context_ptr tls_context_;  // declared before server_: sessions die first
  std::unique_ptr<stream_server> server_;
};

}  // namespace

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  return std::make_unique<server>(config);
}

}  // namespace wirebench::http2
