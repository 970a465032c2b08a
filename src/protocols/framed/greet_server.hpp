#pragma once
// The greet server for any stream framing (newline, length-prefixed): decode every complete
// request in the read buffer, queue one reply each; the connection sends them in one writev.
// Framing is a traits type with make_decoder(max, policy) and make_encoder(max).
#include <string>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/protocol.hpp"
#include "../common/backend_support.hpp"

namespace wirebench {

template <class Framing>
class greet_session final : public connection_handler {
 public:
  greet_session(stream_server& server, const server_config& config)
      : server_(server),
        resync_(config.on_oversize == oversize_policy::resync),
        decoder_(Framing::make_decoder(config.max_frame_bytes, config.on_oversize)),
        encoder_(Framing::make_encoder(config.max_frame_bytes + reply_overhead)) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    std::size_t consumed = 0;
    std::uint64_t served = 0;
    for (;;) {
      const decode_result r = decoder_.decode(data.subspan(consumed));
      consumed += r.consumed;
      if (r.status == decode_status::frame) {
        reply_.assign("hello, ");
        reply_.append(as_text(r.frame));
        send(c, reply_);
        ++served;
      } else if (r.status == decode_status::need_more) {
        break;
      } else if (r.status == decode_status::too_large && resync_) {
        // One reply per request keeps an ordered (FIFO) client in step with us.
        send(c, "error: frame_too_long");
        ++served;
      } else {
        error = r.status == decode_status::too_large ? errc::frame_too_long : errc::corrupt_frame;
        break;
      }
    }
    if (served != 0) server_.count_requests(served);
    return consumed;
  }

  void on_close(connection&, std::error_code) override {}
  bool mid_frame() const override { return decoder_.mid_frame(); }

 private:
  static constexpr std::size_t reply_overhead = 32;  // "hello, " or an error text

  void send(connection& c, std::string_view text) {
    encoded_frame frame;
    if (!encoder_.encode(as_bytes(text), frame)) c.send(frame);
  }

  stream_server& server_;
  bool resync_;
  typename Framing::decoder decoder_;
  typename Framing::encoder encoder_;
  std::string reply_;  // reused: no allocation per request once warm
};

template <class Framing>
class framed_greet_server final : public protocol_server {
 public:
  explicit framed_greet_server(const server_config& config)
      : config_(config), server_(make_config(config), [this] {
          return std::make_unique<greet_session<Framing>>(server_, config_);
        }) {}

  endpoint local_endpoint() const override { return server_.local_endpoint(); }
  void stop() override { server_.stop(); }
  server_stats stats() const override { return server_.stats(); }

 private:
  static stream_server_config make_config(const server_config& c) {
    return transport_config(c, "srv", c.max_frame_bytes + Framing::max_framing_bytes);
  }

  server_config config_;
  stream_server server_;
};

}  // namespace wirebench
