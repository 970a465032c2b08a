#pragma once
// The contract of every decoder around a library that copies what it parses (hiredis's reply
// reader, msgpack-cxx's unpacker, llhttp under our message builder):
//   feed(bytes)   takes a copy of `bytes`, which the caller may then drop. Never fails itself:
//                 what is wrong in the bytes (or with taking them) comes out of next(), in order.
//   next(error)   the next complete item, pointer-like (empty: none yet). Once every item before
//                 a malformed or oversize one has been handed out, it sets `error` (protocol_error
//                 or frame_too_long) instead, and keeps doing so: the stream is lost.
//   release()     every item next() handed out is done with: its storage may be reused.
// What we parse ourselves, zero-copy, has the other contract: core/frame_decoder.hpp. Each
// decoder states its conformance with a static_assert.
#include <concepts>
#include <cstddef>
#include <span>
#include <system_error>

namespace wirebench {

/// A decoder that copies what it is fed (see above).
template <class D>
concept feed_decoder = requires(D& d, std::span<const std::byte> bytes, std::error_code& error) {
  { d.feed(bytes) } -> std::same_as<void>;
  { static_cast<bool>(d.next(error)) };
  { *d.next(error) };
  { d.release() } -> std::same_as<void>;
};

}  // namespace wirebench
