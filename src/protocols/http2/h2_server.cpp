// HTTP/2 server (RFC 9113), cleartext with prior knowledge (h2c) or over TLS with ALPN h2: our
// sans-IO server_session (nghttp2 and the greet routes) fed by the connection and drained into it,
// with the TLS layer (tls_server_handler.hpp) under it when TLS is on. SETTINGS_MAX_CONCURRENT_STREAMS is
// configurable; a graceful stop sends a shutdown notice, answers what the
// client had sent, then a GOAWAY naming the last stream taken.
#include <algorithm>
#include <memory>
#include <string>

#include "h2_backend.hpp"
#include "h2_server_session.hpp"
#include "h2_util.hpp"
#include "wirebench/core/error.hpp"
#include "../common/greet_server.hpp"

namespace wirebench::http2 {
namespace {

server_session_config session_config(const server_config& c) {
  const server_session_config defaults;
  auto window = [&](std::string_view flag) {
    return static_cast<std::uint32_t>(count_option_value(c.options, flag, 0, 0, max_window_bytes));
  };
  return {.max_concurrent_streams = static_cast<std::uint32_t>(count_option_value(
              c.options, "--max-streams", defaults.max_concurrent_streams, 1, max_streams)),
          .stream_window_bytes = window("--stream-window"),
          .connection_window_bytes = window("--connection-window"),
          .max_body_bytes = c.max_frame_bytes};
}

// One connection's adapter: the connection's bytes in and out, the session's request count. TLS,
// when on, is a layer under it (greet_server). Its callbacks run on the connection's thread (see
// connection_handler).
class h2_connection : public stream_session {
 public:
  using settings = server_session_config;
  // The session keeps what it needs of a partial frame itself: a small read buffer will do.
  static std::size_t max_read_bytes(const settings&) { return 64 * 1024; }

  explicit h2_connection(const settings& s) : session_(s) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    error = session_.receive(data);  // on protocol_error, the GOAWAY is flushed below
    count_requests(session_.take_answered());
    if (auto ec = flush(c); ec && !error) error = ec;
    if (!error && !session_.want_read() && !session_.want_write())
      error = errc::peer_closed;  // both sides said goodbye
    return data.size();  // the session keeps what it needs of partial frames
  }
  void on_close(connection&, std::error_code) override {}
  std::size_t calls_in_flight() const override { return session_.responding(); }
  bool busy() const override { return session_.busy(); }
  void on_drain(connection& c) override {
    session_.notice_shutdown();
    flush(c);
  }
  void on_last_read(connection& c) override {
    session_.go_away();
    flush(c);
  }

 private:
  // What the session has to send, queued on the connection.
  std::error_code flush(connection& c) {
    const std::error_code ec = session_.send(c.outbox());
    c.request_flush();
    return ec;
  }

  server_session session_;
};

}  // namespace

std::vector<protocol_option> server_options() {
  return {count_option("--max-streams", 1, max_streams,
                       "HTTP/2: SETTINGS_MAX_CONCURRENT_STREAMS (default 100)"),
          count_option("--stream-window", 0, max_window_bytes,
                       "HTTP/2: per-stream flow-control window in bytes (0, the default: 65535)"),
          count_option("--connection-window", 0, max_window_bytes,
                       "HTTP/2: connection flow-control window in bytes (0, the default: 65535)")};
}

void fit_server_to_load(server_config& config, std::size_t calls) {
  // Never below the default: a run's few callers should not shrink the server's limit.
  config.options.insert_or_assign("--max-streams", std::to_string(std::clamp<std::size_t>(calls, 100, max_streams)));
}

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  return std::make_unique<greet_server<h2_connection>>(config, "h2-srv", session_config(config),
                                                       tls_alpn);
}

}  // namespace wirebench::http2
