#pragma once
// The contract of every decoder of bytes we parse ourselves (newline and length-prefixed framing,
// mux frames, RESP requests): zero-copy, fed every unconsumed byte of the stream.
//   decode(bytes) -> decode_step<Frame>  what was found, how many bytes to drop, the frame (a view
//                                        into `bytes`, valid until the caller drops them)
//   error()       -> std::error_code     after too_large or corrupt: which error it was (the
//                                        errc a connection closes with)
// Libraries that copy what they parse (hiredis, msgpack-cxx, llhttp) have the other contract,
// core/feed_decoder.hpp. Each decoder states its conformance with a static_assert.
#include <concepts>
#include <cstddef>
#include <span>
#include <system_error>

#include "wirebench/core/decode_result.hpp"

namespace wirebench {

namespace detail {
template <class T>
inline constexpr bool is_decode_step = false;
template <class Frame>
inline constexpr bool is_decode_step<decode_step<Frame>> = true;
}  // namespace detail

/// A zero-copy decoder (see above).
template <class D>
concept frame_decoder = requires(D& d, const D& cd, std::span<const std::byte> bytes) {
  requires detail::is_decode_step<decltype(d.decode(bytes))>;
  { cd.error() } -> std::same_as<std::error_code>;
};

/// One step from `consumed` on in `data` (every unconsumed byte): advances `consumed` and, when the
/// step is too_large or corrupt, sets `error` to the decoder's error.
template <frame_decoder D>
auto decode_from(D& decoder, std::span<const std::byte> data, std::size_t& consumed,
                 std::error_code& error) {
  const auto step = decoder.decode(data.subspan(consumed));
  consumed += step.consumed;
  if (step.status == decode_status::too_large || step.status == decode_status::corrupt)
    error = decoder.error();
  return step;
}

}  // namespace wirebench
