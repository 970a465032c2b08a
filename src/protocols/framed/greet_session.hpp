#pragma once
// The greet session for any stream framing (newline, length-prefixed): decode every complete
// request in the read buffer, queue one reply each; the connection sends them in one writev.
// Framing is a traits type with make_decoder(max, policy) and make_encoder(max).
#include <memory>
#include <string>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/protocol.hpp"
#include "../common/greet_server.hpp"

namespace wirebench {

template <class Framing>
class greet_session : public stream_session {
 public:
  struct settings {
    std::size_t max_frame_bytes;
    oversize_policy on_oversize;
  };
  static std::size_t max_read_bytes(const settings& s) {
    return s.max_frame_bytes + Framing::max_framing_bytes;
  }

  explicit greet_session(const settings& s)
      : resync_(s.on_oversize == oversize_policy::resync),
        decoder_(Framing::make_decoder(s.max_frame_bytes, s.on_oversize)),
        encoder_(Framing::make_encoder(s.max_frame_bytes + reply_overhead)) {}

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
    count_requests(served);
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

  bool resync_;
  typename Framing::decoder decoder_;
  typename Framing::encoder encoder_;
  std::string reply_;  // reused: no allocation per request once warm
};

// The greet server of a framing: line and length-prefixed register this.
template <class Framing>
std::unique_ptr<protocol_server> make_framed_server(const server_config& c) {
  return std::make_unique<greet_server<greet_session<Framing>>>(
      c, "srv", typename greet_session<Framing>::settings{c.max_frame_bytes, c.on_oversize});
}

}  // namespace wirebench
