// HTTP/2 server (RFC 9113), cleartext with prior knowledge (h2c) or over TLS with ALPN h2: our
// sans-IO server_session (nghttp2 and the greet routes) fed by the connection and drained into it,
// with our sans-IO TLS channel between the two when TLS is on. SETTINGS_MAX_CONCURRENT_STREAMS is
// configurable; a graceful stop sends GOAWAY.
#include <memory>
#include <string>

#include "h2_backend.hpp"
#include "h2_server_session.hpp"
#include "h2_util.hpp"
#include "../tls/tls_channel.hpp"
#include "../tls/tls_context.hpp"
#include "wirebench/core/error.hpp"
#include "../common/backend_support.hpp"

namespace wirebench::http2 {
namespace {

server_session_config session_config(const server_config& c) {
  return {.max_concurrent_streams = c.max_concurrent_streams,
          .stream_window_bytes = c.stream_window_bytes,
          .connection_window_bytes = c.connection_window_bytes,
          .max_body_bytes = c.max_frame_bytes};
}

// One connection's adapter: TLS off or on, the connection's bytes in and out, the request count to
// the server. Its callbacks run on the connection's thread (see connection_handler).
class h2_connection final : public connection_handler {
 public:
  h2_connection(stream_server& server, const server_config& config, SSL_CTX* tls_context)
      : server_(server), session_(session_config(config)) {
    if (tls_context != nullptr)
      tls_ = std::make_unique<tls::tls_channel>(tls_context, tls::tls_channel::role::server, "", "h2");
  }

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    const std::size_t consumed = data.size();  // the session keeps what it needs of partial frames
    if ((error = unwrap(tls_.get(), data, plain_in_))) {
      flush(c);  // the alert, if TLS has one for the peer
      return consumed;
    }
    error = session_.receive(data);  // on protocol_error, the GOAWAY is flushed below
    if (const std::uint64_t n = session_.take_answered(); n != 0) server_.count_requests(n);
    if (auto ec = flush(c); ec && !error) error = ec;
    if (!error && !session_.want_read() && !session_.want_write())
      error = errc::peer_closed;  // both sides said goodbye
    return consumed;
  }
  void on_close(connection&, std::error_code) override {}
  bool busy() const override { return session_.busy(); }
  void on_drain(connection& c) override {
    session_.go_away();
    flush(c);
  }

 private:
  // What the session has to send, through TLS when it is on, queued on the connection.
  std::error_code flush(connection& c) {
    std::error_code ec;
    if (tls_ == nullptr) {
      ec = session_.send(c.outbox());
    } else {
      plain_out_.clear();  // TLS protects one contiguous run
      ec = session_.send(plain_out_);
      if (!ec) ec = wrap(*tls_, plain_out_, c.outbox());
    }
    c.request_flush();
    return ec;
  }

  stream_server& server_;
  std::unique_ptr<tls::tls_channel> tls_;  // null in cleartext
  std::string plain_in_;                   // what TLS decrypted of the last read
  std::string plain_out_;                  // what the session said, before TLS protects it
  server_session session_;
};

class server final : public protocol_server {
 public:
  explicit server(const server_config& c) : config_(c) {
    if (c.tls.enabled) tls_context_ = tls::make_server_context(c.tls, "h2");
    // The session keeps what it needs of a partial frame itself: a small read buffer will do.
    const stream_server_config sc = transport_config(c, "h2-srv", 64 * 1024);
    server_ = std::make_unique<stream_server>(sc, [this](stream_server& server) {
      return std::make_unique<h2_connection>(server, config_, tls_context_.get());
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
