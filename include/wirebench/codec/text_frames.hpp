#pragma once
// Text in and out of a stream framing (newline, length-prefixed): every whole frame a decoder
// finds in a buffer, and one encoded frame onto an output queue. The loop each framed codec would
// otherwise write again; inline, so a codec's hot path pays no call for it.
#include <cstddef>
#include <span>
#include <string_view>
#include <system_error>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/frame_decoder.hpp"
#include "wirebench/core/decode_result.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace wirebench {

/// Hands `on_frame(text)` every whole frame `decoder` finds in `data`, in order, until it needs
/// more bytes or fails (`error`: frame_too_long or corrupt_frame). Returns the bytes consumed;
/// each text is a view into `data`, valid until the caller drops them.
template <frame_decoder Decoder, class OnFrame>
std::size_t decode_frames(Decoder& decoder, std::span<const std::byte> data, std::error_code& error,
                          OnFrame&& on_frame) {
  std::size_t consumed = 0;
  for (;;) {
    const decode_result r = decode_from(decoder, data, consumed, error);
    if (r.status != decode_status::frame) return consumed;
    on_frame(as_text(r.frame));
  }
}

/// Appends `text` to `out` as one frame of `encoder`'s framing; an error (a frame over the
/// encoder's limit) appends nothing.
template <class Encoder>
std::error_code encode_frame(const Encoder& encoder, std::string_view text, gather_queue& out) {
  encoded_frame frame;
  if (const std::error_code ec = encoder.encode(as_bytes(text), frame)) return ec;
  out.append(frame);
  return {};
}

}  // namespace wirebench
