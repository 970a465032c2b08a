#include "wirebench/mux/mux_client_codec.hpp"

#include <cstring>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/mux_frame.hpp"

namespace wirebench {
namespace {

class mux_client_codec final : public client_codec {
 public:
  mux_client_codec(std::size_t max_frame, reply_order order)
      : max_frame_(max_frame),
        order_(order),
        decoder_(max_frame) {}

  reply_order order() const override { return order_; }

  // Straight into the queue: one request per call, so no encoded_frame in between.
  std::error_code encode(std::uint32_t id, std::string_view request, gather_queue& out) override {
    if (request.size() > max_frame_ || request.size() > UINT32_MAX - mux_header_bytes)
      return errc::frame_too_long;
    std::byte* at = out.append_in_place(4 + mux_header_bytes + request.size());
    write_mux_header(at, mux_frame_type::request, id, request.size());
    if (!request.empty())
      std::memcpy(at + 4 + mux_header_bytes, request.data(), request.size());
    return {};
  }

  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue& out,
                     std::error_code& error) override {
    std::size_t consumed = 0;
    while (!error) {
      const auto step = decode_from(decoder_, data, consumed, error);
      if (step.status != decode_status::frame) break;
      const mux_frame* f = &step.frame;
      switch (f->type) {
        case mux_frame_type::reply:
          into.replies.push_back({f->id, {}, as_text(f->payload)});
          break;
        case mux_frame_type::error_reply:
          into.replies.push_back({f->id, errc::remote_error, as_text(f->payload)});
          break;
        case mux_frame_type::ping: {
          encoded_frame pong;
          if (!encode_mux_frame(mux_frame_type::pong, f->id, f->payload, SIZE_MAX, pong))
            out.append(pong);
          break;
        }
        case mux_frame_type::pong:
          break;
        case mux_frame_type::drain:  // the server answers what it has, then closes
          into.going_away = true;
          break;
        default:
          error = errc::protocol_error;  // requests and cancels do not flow to clients
          break;
      }
    }
    return consumed;
  }

  bool cancel(std::uint32_t id, gather_queue& out) override {
    encoded_frame f;
    if (!encode_mux_frame(mux_frame_type::cancel, id, {}, 0, f)) out.append(f);
    return true;
  }

  // The server answers with a pong, which decode() takes and drops: any byte is the answer.
  bool ping(gather_queue& out) override {
    encoded_frame f;
    if (!encode_mux_frame(mux_frame_type::ping, 0, {}, 0, f)) out.append(f);
    return true;
  }

  bool mid_reply() const override { return decoder_.mid_frame(); }
  std::size_t max_read_bytes() const override { return max_frame_ + mux_header_bytes + 4; }

 private:
  std::size_t max_frame_;
  reply_order order_;
  mux_frame_decoder decoder_;
};

}  // namespace

std::unique_ptr<client_codec> make_mux_client_codec(std::size_t max_frame_bytes,
                                                    reply_order order) {
  return std::make_unique<mux_client_codec>(max_frame_bytes, order);
}

}  // namespace wirebench
