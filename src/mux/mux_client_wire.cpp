#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/client_wire.hpp"
#include "wirebench/mux/mux_frame.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench {
namespace {

class mux_client_wire final : public client_wire {
 public:
  explicit mux_client_wire(std::size_t max_frame)
      : max_frame_(max_frame), decoder_({4, max_frame + mux_header_bytes, oversize_policy::fail}) {}

  std::size_t decode(connection& c, std::span<const std::byte> data, reply_sink& sink,
                     std::error_code& error) override {
    std::size_t consumed = 0;
    for (;;) {
      const auto f = next_mux_frame(decoder_, data, consumed, error);
      if (!f) break;
      switch (f->type) {
        case mux_frame_type::reply:
        case mux_frame_type::error_reply: {
          const std::error_code ec = f->type == mux_frame_type::reply
                                         ? std::error_code{}
                                         : make_error_code(errc::remote_error);
          if (!sink.reply(f->id, ec, as_text(f->payload))) error = errc::protocol_error;
          break;
        }
        case mux_frame_type::ping: {
          encoded_frame pong;
          if (!encode_mux_frame(mux_frame_type::pong, f->id, f->payload, SIZE_MAX, pong)) c.send(pong);
          break;
        }
        case mux_frame_type::pong:
          break;
        case mux_frame_type::drain:
          sink.drain();
          break;
        default:
          error = errc::protocol_error;  // requests and cancels do not flow to clients
          break;
      }
      if (error) break;
    }
    return consumed;
  }

  void write_request(connection& c, std::uint32_t id, std::string&& payload) override {
    encoded_frame f;
    if (!encode_mux_frame(mux_frame_type::request, id, as_bytes(payload), max_frame_, f))
      c.send(f.prefix(), std::move(payload), {});
  }

  bool write_cancel(connection& c, std::uint32_t id) override {
    encoded_frame f;
    if (!encode_mux_frame(mux_frame_type::cancel, id, {}, 0, f)) c.send(f);
    return true;
  }

  bool mid_frame() const override { return decoder_.mid_frame(); }
  std::size_t max_frame_bytes() const override { return max_frame_ + mux_header_bytes + 4; }

 private:
  std::size_t max_frame_;
  length_prefix_decoder decoder_;
};

}  // namespace

std::unique_ptr<client_wire> make_mux_client_wire(std::size_t max_frame_bytes) {
  return std::make_unique<mux_client_wire>(max_frame_bytes);
}

}  // namespace wirebench
