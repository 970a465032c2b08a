#include "wirebench/mux/mux_server_codec.hpp"

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {

namespace {

constexpr std::string_view too_long_text = "frame_too_long";

}  // namespace

mux_server_codec::mux_server_codec(std::size_t max_frame_bytes)
    : max_frame_bytes_(max_frame_bytes),
      decoder_(max_frame_bytes) {}

std::size_t mux_server_codec::decode(std::span<const std::byte> data, server_request& into,
                                     gather_queue&, std::error_code& error) {
  std::size_t consumed = 0;
  // Pongs answer nothing and ask nothing: skipped here, so that `none` means "need more bytes".
  for (;;) {
    const auto step = decode_from(decoder_, data, consumed, error);
    if (step.status != decode_status::frame) return consumed;
    const mux_frame* f = &step.frame;
    switch (f->type) {
      case mux_frame_type::request:
        into.what = server_request::kind::call;
        into.key = f->id;
        into.argument = as_text(f->payload);
        return consumed;
      case mux_frame_type::cancel:
        into.what = server_request::kind::cancel;
        into.key = f->id;
        return consumed;
      case mux_frame_type::ping: {
        encoded_frame pong;
        if (encode_mux_frame(mux_frame_type::pong, f->id, f->payload, SIZE_MAX, pong)) break;
        into.what = server_request::kind::notice;
        into.answer.clear();
        for (const auto part : pong.buffers()) into.answer.append(as_text(part));
        return consumed;
      }
      case mux_frame_type::pong:
        continue;
      default:
        error = errc::protocol_error;  // replies and drains do not flow to servers
        return consumed;
    }
  }
}

void mux_server_codec::encode_reply(std::uint64_t key, bool ok, std::string_view body,
                                    gather_queue& out) {
  if (body.size() > max_frame_bytes_) {  // over what the client was promised: say so instead
    ok = false;
    body = too_long_text;
  }
  encoded_frame f;
  if (!encode_mux_frame(ok ? mux_frame_type::reply : mux_frame_type::error_reply,
                        static_cast<std::uint32_t>(key), as_bytes(body), SIZE_MAX, f))
    out.append(f);
}

void mux_server_codec::encode_owned_reply(std::uint64_t key, bool ok, std::string&& body,
                                          gather_queue& out) {
  if (body.size() > max_frame_bytes_) {
    encode_reply(key, ok, body, out);
    return;
  }
  encoded_frame f;
  if (!encode_mux_frame(ok ? mux_frame_type::reply : mux_frame_type::error_reply,
                        static_cast<std::uint32_t>(key), as_bytes(body), SIZE_MAX, f))
    out.append(f.prefix(), std::move(body), {});  // queued, not copied, when it is large
}

bool mux_server_codec::ping(gather_queue& out) {
  encoded_frame f;
  if (!encode_mux_frame(mux_frame_type::ping, 0, {}, 0, f)) out.append(f);
  return true;
}

void mux_server_codec::going_away(gather_queue& out) {
  encoded_frame f;
  if (!encode_mux_frame(mux_frame_type::drain, 0, {}, 0, f)) out.append(f);
}

}  // namespace wirebench
