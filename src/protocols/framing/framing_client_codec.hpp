#pragma once
// The greet call's client codec for a stream framing whose replies come back in request order
// (line, length-prefixed): each call is one frame out, each reply one frame in. Pipelining is the
// engine's in-flight cap per connection.
#include "wirebench/codec/client_codec.hpp"
#include "wirebench/codec/text_frames.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

template <class Framing>
class framing_client_codec final : public client_codec {
 public:
  explicit framing_client_codec(std::size_t max_frame)
      : max_frame_(max_frame),
        decoder_(Framing::make_decoder(max_frame, oversize_policy::fail)),
        encoder_(Framing::make_encoder(max_frame)) {}

  reply_order order() const override { return reply_order::in_order; }

  std::error_code encode(std::uint32_t, std::string_view request, gather_queue& out) override {
    return encode_frame(encoder_, request, out);
  }

  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue&,
                     std::error_code& error) override {
    return decode_frames(decoder_, data, error,
                         [&](std::string_view reply) { into.replies.push_back({0, {}, reply}); });
  }

  bool mid_reply() const override { return decoder_.mid_frame(); }
  std::size_t max_read_bytes() const override { return max_frame_ + Framing::max_framing_bytes; }

 private:
  std::size_t max_frame_;
  typename Framing::decoder decoder_;
  typename Framing::encoder encoder_;
};

// The client of a framed greet protocol: its codec, which the registry runs on the client engine.
template <class Framing>
client_codec_factory framing_client_codecs(const client_config& c) {
  return [max = c.max_frame_bytes] { return std::make_unique<framing_client_codec<Framing>>(max); };
}

}  // namespace wirebench
