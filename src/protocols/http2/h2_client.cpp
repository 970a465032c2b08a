// HTTP/2 client: the shared multiplexing client with an HTTP/2 wire. Every call is a stream
// (GET /greet?name=...) on one connection (or C); the call id rides as the stream's user data.
// Streams beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS wait inside nghttp2 (they are not
// failed); a canceled call resets its stream. Completions are collected while nghttp2 parses and
// delivered after it returns, so no user code runs inside an nghttp2 callback. With TLS on, the
// bytes pass through our sans-IO TLS channel (ALPN h2, required) on their way in and out.
#include <unordered_map>
#include <vector>

#include "h2_backend.hpp"
#include "h2_util.hpp"
#include "../http_common/greet_api.hpp"
#include "../tls/tls_channel.hpp"
#include "../tls/tls_context.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/client_wire.hpp"
#include "../common/backend_support.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench::http2 {
namespace {

std::string host_for(const endpoint& where) {
  return where.is_tcp() ? where.address : "localhost";
}

std::string authority_for(const endpoint& where) {
  if (!where.is_tcp()) return "localhost";
  return where.address.find(':') != std::string::npos
             ? "[" + where.address + "]:" + std::to_string(where.port)
             : where.address + ":" + std::to_string(where.port);
}

class wire final : public client_wire {
 public:
  wire(std::string authority, std::size_t max_body, tls::context_ptr tls_context, const std::string& host)
      : authority_(std::move(authority)), max_body_(max_body), tls_context_(std::move(tls_context)) {
    if (tls_context_)
      tls_ = std::make_unique<tls::tls_channel>(tls_context_.get(), tls::tls_channel::role::client,
                                                host, "h2");
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    callbacks_ptr callbacks(cb);
    nghttp2_session_callbacks_set_on_header_callback(cb, &wire::on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &wire::on_data_chunk);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, &wire::on_stream_close);
    nghttp2_session* s = nullptr;
    nghttp2_session_client_new(&s, cb, this);
    session_.reset(s);
    nghttp2_submit_settings(s, NGHTTP2_FLAG_NONE, nullptr, 0);  // sent with the first flush
  }

  std::size_t decode(connection& c, std::span<const std::byte> data, reply_sink& sink,
                     std::error_code& error) override {
    const std::size_t consumed = data.size();
    if ((error = unwrap(tls_.get(), data, plain_))) {
      flush(session_.get(), c, tls_.get());  // the alert, if TLS has one for the peer
      return consumed;
    }
    in_recv_ = true;
    const ssize_t rv = nghttp2_session_mem_recv(
        session_.get(), reinterpret_cast<const uint8_t*>(data.data()), data.size());
    in_recv_ = false;
    if (rv < 0) error = errc::protocol_error;
    // Streams the server refused (sent before its SETTINGS lowered the limit) were not processed
    // (RFC 9113, 8.7): submit them again; nghttp2 now holds them until a stream frees up.
    std::vector<finished> refused = std::move(refused_);
    refused_.clear();
    for (finished& f : refused) submit(f.id, f.path);
    if (auto ec = flush(session_.get(), c, tls_.get()); ec && !error) error = ec;
    // Deliver outside nghttp2's callbacks: a completion may issue the next call at once.
    std::vector<finished> done = std::move(finished_);
    finished_.clear();
    for (finished& f : done) {
      bool matched;
      std::string greeting;
      if (f.stream_error != 0)
        matched = sink.reply(f.id, errc::connection_closed, {});  // reset or refused by the peer
      else if (f.status == 200 && http::parse_greeting(f.body, greeting))
        matched = sink.reply(f.id, {}, greeting);
      else if (f.status == 200)
        matched = sink.reply(f.id, errc::wrong_reply, {});
      else
        matched = sink.reply(f.id, errc::remote_error, std::to_string(f.status) + " " + f.body);
      if (!matched) error = errc::protocol_error;
    }
    return consumed;
  }

  void write_request(connection& c, std::uint32_t id, std::string&& name) override {
    submit(id, http::greet_target(name));
    if (!in_recv_) flush(session_.get(), c, tls_.get());
  }

  bool write_cancel(connection& c, std::uint32_t id) override {
    auto it = by_call_.find(id);
    if (it == by_call_.end()) return true;
    nghttp2_submit_rst_stream(session_.get(), NGHTTP2_FLAG_NONE, it->second, NGHTTP2_CANCEL);
    if (!in_recv_) flush(session_.get(), c, tls_.get());
    return true;
  }
  bool mid_frame() const override { return false; }
  std::size_t max_frame_bytes() const override { return 64 * 1024; }

 private:
  struct finished {
    std::uint32_t id;
    int status;
    std::string body;
    std::uint32_t stream_error;
    std::string path;  // kept to resubmit a refused stream
  };
  static wire& self(void* p) { return *static_cast<wire*>(p); }

  void submit(std::uint32_t id, const std::string& path) {
    const nghttp2_nv headers[] = {header(":method", "GET"), header(":scheme", tls_ ? "https" : "http"),
                                  header(":authority", authority_), header(":path", path)};
    const int32_t stream = nghttp2_submit_request(session_.get(), nullptr, headers, 4, nullptr, nullptr);
    if (stream < 0) {  // out of stream ids on this connection
      finished_.push_back({id, 0, {}, static_cast<std::uint32_t>(NGHTTP2_REFUSED_STREAM), path});
      return;
    }
    streams_.insert_or_assign(stream, finished{id, 0, {}, 0, path});
    by_call_.insert_or_assign(id, stream);
  }

  static int on_header(nghttp2_session*, const nghttp2_frame* frame, const uint8_t* name,
                       size_t namelen, const uint8_t* value, size_t valuelen, uint8_t, void* user) {
    auto it = self(user).streams_.find(frame->hd.stream_id);
    if (it == self(user).streams_.end()) return 0;
    if (std::string_view(reinterpret_cast<const char*>(name), namelen) == ":status")
      it->second.status = std::atoi(std::string(reinterpret_cast<const char*>(value), valuelen).c_str());
    return 0;
  }
  static int on_data_chunk(nghttp2_session* s, uint8_t, int32_t stream_id, const uint8_t* data,
                           size_t len, void* user) {
    auto it = self(user).streams_.find(stream_id);
    if (it == self(user).streams_.end()) return 0;
    if (it->second.body.size() + len > self(user).max_body_) {
      nghttp2_submit_rst_stream(s, NGHTTP2_FLAG_NONE, stream_id, NGHTTP2_CANCEL);
      return 0;
    }
    it->second.body.append(reinterpret_cast<const char*>(data), len);
    return 0;
  }
  static int on_stream_close(nghttp2_session*, int32_t stream_id, uint32_t error_code, void* user) {
    wire& w = self(user);
    auto it = w.streams_.find(stream_id);
    if (it == w.streams_.end()) return 0;
    it->second.stream_error = error_code;
    w.by_call_.erase(it->second.id);
    if (error_code == NGHTTP2_REFUSED_STREAM)
      w.refused_.push_back(std::move(it->second));
    else
      w.finished_.push_back(std::move(it->second));
    w.streams_.erase(it);
    return 0;
  }

  std::string authority_;
  std::size_t max_body_;
  tls::context_ptr tls_context_;           // null in cleartext; outlives tls_
  std::unique_ptr<tls::tls_channel> tls_;
  std::string plain_;                      // what TLS decrypted of the last read
  session_ptr session_;
  std::unordered_map<int32_t, finished> streams_;     // open streams: what has arrived so far
  std::unordered_map<std::uint32_t, int32_t> by_call_;  // call id -> stream, for cancel
  std::vector<finished> finished_;
  std::vector<finished> refused_;  // to submit again once nghttp2 has returned
  bool in_recv_ = false;
};

}  // namespace

std::unique_ptr<protocol_client> make_client(const client_config& config) {
  mux_client_config m = multiplexing_config(config);
  // nghttp2 holds streams beyond the server's concurrency limit; this only bounds memory.
  m.max_in_flight = config.depth == 0 ? 65536 : config.depth;
  m.max_queued = 1 << 20;
  tls::context_ptr tls_context;
  if (config.tls.enabled) tls_context = tls::make_client_context(config.tls, "h2");
  m.wire = [authority = authority_for(config.connect), max = config.max_frame_bytes, tls_context,
            host = host_for(config.connect)] {
    return std::make_unique<wire>(authority, max, tls_context, host);
  };
  return std::make_unique<multiplexed_greet_client>(config, std::move(m));
}

}  // namespace wirebench::http2
