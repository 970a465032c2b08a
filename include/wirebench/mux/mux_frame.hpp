#pragma once
// The multiplexed protocol's frame, carried as the payload of a 4-byte length-prefixed frame:
//
//   offset 0  type     u8   (see mux_frame_type)
//   offset 1  id       u32  big-endian request id (0 for ping/pong/drain)
//   offset 5  payload  the rest (request body, reply body, or error text)
//
// Sans-IO: parse_mux_frame() reads a view; encode_mux_header() writes the 5 header bytes, which
// go out as a gather buffer in front of the caller's payload. docs/PROTOCOLS.md has a hex example.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <system_error>

#include "wirebench/codec/encoded_frame.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"

namespace wirebench {

enum class mux_frame_type : std::uint8_t {
  request = 1,      // client -> server: call `id` with the payload
  reply = 2,        // server -> client: the result of call `id`
  error_reply = 3,  // server -> client: call `id` failed; the payload is the reason (text)
  cancel = 4,       // client -> server: the client gave up on `id`; the server may drop its work
  ping = 5,         // either way: answer with pong carrying the same payload
  pong = 6,
  drain = 7,        // server -> client: finishing what is in flight, then closing; send no more
};

constexpr std::size_t mux_header_bytes = 5;

struct mux_frame {
  mux_frame_type type;
  std::uint32_t id;
  std::span<const std::byte> payload;
};

// Parses a length-prefixed frame's payload. nullopt when it is shorter than the header or the type
// is unknown (the stream is then broken: errc::protocol_error).
std::optional<mux_frame> parse_mux_frame(std::span<const std::byte> frame);

// The next mux frame in a stream of length-prefixed frames (`data` is every unconsumed byte;
// `consumed` advances past what was used). nullopt when more bytes are needed, or on a broken
// stream with `error` set: frame_too_long, corrupt_frame, or protocol_error (not a mux frame).
std::optional<mux_frame> next_mux_frame(length_prefix_decoder& decoder,
                                        std::span<const std::byte> data, std::size_t& consumed,
                                        std::error_code& error);

// The full frame as gather buffers: the 4-byte length and the mux header as prefix, the caller's
// payload referenced. max_payload is the receiver's limit (frame_too_long when over it).
std::error_code encode_mux_frame(mux_frame_type type, std::uint32_t id,
                                 std::span<const std::byte> payload, std::size_t max_payload,
                                 encoded_frame& out);

}  // namespace wirebench
