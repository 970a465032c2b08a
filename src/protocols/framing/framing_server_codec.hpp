#pragma once
// The greet server codec of any stream framing (newline, length-prefixed): each whole frame is a
// call whose reply is framed alike. Ordered (FIFO): replies carry nothing to match them by.
// Framing is a traits type with make_decoder(max, policy), make_encoder(max) and
// max_framing_bytes.
#include <memory>
#include <string>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/text_frames.hpp"
#include "wirebench/codec/server_codec.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

template <class Framing>
class framing_server_codec final : public server_codec {
 public:
  framing_server_codec(std::size_t max_frame_bytes, oversize_policy on_oversize)
      : max_frame_bytes_(max_frame_bytes),
        resync_(on_oversize == oversize_policy::resync),
        decoder_(Framing::make_decoder(max_frame_bytes, on_oversize)),
        encoder_(Framing::make_encoder(max_frame_bytes + reply_overhead)) {}

  bool ordered() const override { return true; }

  std::size_t decode(std::span<const std::byte> data, server_request& into, gather_queue&,
                     std::error_code& error) override {
    const decode_result r = decoder_.decode(data);
    if (r.status == decode_status::frame) {
      into.what = server_request::kind::call;
      into.argument = as_text(r.frame);
    } else if (r.status == decode_status::too_large && resync_) {
      // One reply per request keeps an ordered (FIFO) client in step with us.
      into.what = server_request::kind::answered;
      into.answer.clear();
      append_frame(into.answer, "error: frame_too_long");
    } else if (r.status != decode_status::need_more) {
      error = decoder_.error();
    }
    return r.consumed;
  }

  void encode_reply(std::uint64_t, bool, std::string_view body, gather_queue& out) override {
    encode_frame(encoder_, body, out);  // a reply over the limit is dropped: none is (reply_overhead)
  }

  bool mid_request() const override { return decoder_.mid_frame(); }
  std::size_t max_read_bytes() const override {
    return max_frame_bytes_ + Framing::max_framing_bytes;
  }

 private:
  static constexpr std::size_t reply_overhead = 32;  // "hello, " or an error text

  void append_frame(std::string& to, std::string_view text) const {
    encoded_frame frame;
    if (encoder_.encode(as_bytes(text), frame)) return;
    for (const auto part : frame.buffers()) to.append(as_text(part));
  }

  std::size_t max_frame_bytes_;
  bool resync_;
  typename Framing::decoder decoder_;
  typename Framing::encoder encoder_;
};

// The server codecs of a framing: line and length-prefixed register this.
template <class Framing>
server_codec_factory framing_server_codecs(const server_config& c) {
  return [max = c.max_frame_bytes, policy = c.on_oversize] {
    return std::make_unique<framing_server_codec<Framing>>(max, policy);
  };
}

}  // namespace wirebench
