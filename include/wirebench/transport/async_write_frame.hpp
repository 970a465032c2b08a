#pragma once
/// \file
/// async_write_frame(): one encoded frame written whole to any Asio AsyncWriteStream, with any
/// completion token. Completion signature: `void(std::error_code, std::size_t bytes_written)`.
///
/// As with asio::async_write, the caller keeps the bytes alive until completion: here the
/// encoded_frame (its prefix and suffix bytes live in it) and the payload it references. An
/// encoder's error (frame_too_long) completes the operation without writing, through a post to
/// the stream's executor. Cancellation and threading are asio::async_write's.
#include <array>
#include <cstddef>
#include <span>
#include <system_error>
#include <utility>

#include <asio/associated_executor.hpp>
#include <asio/async_result.hpp>
#include <asio/buffer.hpp>
#include <asio/post.hpp>
#include <asio/write.hpp>

#include "wirebench/core/encoded_frame.hpp"

namespace wirebench {

namespace detail {
/// The frame as Asio buffers (they point into the frame and its payload; copied by async_write).
inline std::array<asio::const_buffer, 3> frame_buffers(const encoded_frame& frame) {
  const auto b = frame.buffers();
  return {asio::const_buffer(b[0].data(), b[0].size()), asio::const_buffer(b[1].data(), b[1].size()),
          asio::const_buffer(b[2].data(), b[2].size())};
}
}  // namespace detail

/// Writes `frame` (prefix, payload, suffix) in one gathered write sequence.
template <class AsyncWriteStream, class CompletionToken>
auto async_write_frame(AsyncWriteStream& stream, const encoded_frame& frame,
                       CompletionToken&& token) {
  return asio::async_write(stream, detail::frame_buffers(frame), std::forward<CompletionToken>(token));
}

/// Encodes `payload` with `encoder` (line_encoder, length_prefix_encoder, or one with
/// `std::error_code encode(std::span<const std::byte>, encoded_frame&)`) into `frame`, then writes
/// it. `frame` and `payload` must outlive the operation.
template <class AsyncWriteStream, class Encoder, class CompletionToken>
auto async_write_frame(AsyncWriteStream& stream, const Encoder& encoder,
                       std::span<const std::byte> payload, encoded_frame& frame,
                       CompletionToken&& token) {
  return asio::async_initiate<CompletionToken, void(std::error_code, std::size_t)>(
      [&stream, &encoder, payload, &frame](auto handler) {
        if (const std::error_code ec = encoder.encode(payload, frame)) {
          // Not inside the initiating call: a failed encode completes like any other result.
          auto ex = asio::get_associated_executor(handler, stream.get_executor());
          asio::post(ex, [h = std::move(handler), ec]() mutable { std::move(h)(ec, 0); });
          return;
        }
        asio::async_write(stream, detail::frame_buffers(frame), std::move(handler));
      },
      token);
}

}  // namespace wirebench
