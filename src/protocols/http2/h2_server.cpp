// HTTP/2 server (RFC 9113), cleartext with prior knowledge (h2c) or over TLS with ALPN h2: our
// sans-IO rest_session (nghttp2 and the greet routes) as the server codec, its settings from the
// protocol's own options. SETTINGS_MAX_CONCURRENT_STREAMS and the windows are configurable; a
// graceful stop sends a shutdown notice, answers what the client had sent, then a GOAWAY naming
// the last stream taken.
#include <algorithm>
#include <memory>
#include <string>

#include "h2_backend.hpp"
#include "h2_rest_session.hpp"

namespace wirebench::http2 {
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

server_codec_factory server_codecs(const server_config& config) {
  return [settings = session_config(config)] { return std::make_unique<rest_session>(settings); };
}

}  // namespace wirebench::http2
