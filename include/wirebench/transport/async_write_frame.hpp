#pragma once
/// \file
/// async_write_frame(): one encoded frame written whole to any Asio AsyncWriteStream, with any
/// completion token (without one, the stream's executor's default, as for Asio's own operations).
/// Completion signature: `void(std::error_code, std::size_t bytes_written)`.
///
/// As with asio::async_write, the caller keeps the bytes alive until completion: here the
/// encoded_frame (its prefix and suffix bytes live in it) and the payload it references. An
/// encoder's error (frame_too_long) completes the operation without writing, posted to the
/// handler's executor (the stream's unless the handler has one) with the handler's allocator:
/// never inside the initiating call. Cancellation and threading are asio::async_write's, except
/// that a canceled write reports errc::canceled (== std::errc::operation_canceled), as every
/// operation of the library does, not Asio's operation_aborted.
#include <array>
#include <cstddef>
#include <span>
#include <system_error>
#include <utility>

#include <asio/associated_allocator.hpp>
#include <asio/associated_executor.hpp>
#include <asio/associator.hpp>
#include <asio/async_result.hpp>
#include <asio/bind_allocator.hpp>
#include <asio/buffer.hpp>
#include <asio/error.hpp>
#include <asio/post.hpp>
#include <asio/write.hpp>

#include "wirebench/core/encoded_frame.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {

namespace detail {
/// The frame as Asio buffers (they point into the frame and its payload; copied by async_write).
inline std::array<asio::const_buffer, 3> frame_buffers(const encoded_frame& frame) {
  const auto b = frame.buffers();
  return {asio::const_buffer(b[0].data(), b[0].size()), asio::const_buffer(b[1].data(), b[1].size()),
          asio::const_buffer(b[2].data(), b[2].size())};
}

/// async_write's handler: the caller's, with Asio's operation_aborted reported as errc::canceled.
/// Runs where async_write completes (the handler's executor); carries the handler's executor,
/// allocator and cancellation slot (the associator below).
template <class Handler>
struct write_frame_handler {
  Handler handler;
  void operator()(std::error_code ec, std::size_t n) {
    if (ec == asio::error::operation_aborted) ec = errc::canceled;
    std::move(handler)(ec, n);
  }
};

/// Starts the write when the token says so.
template <class AsyncWriteStream, class Encoder>
struct initiate_write_frame {
  AsyncWriteStream* stream;

  template <class Handler>
  void operator()(Handler&& handler, const Encoder* encoder, std::span<const std::byte> payload,
                  encoded_frame* frame) const {
    if (const std::error_code ec = encoder->encode(payload, *frame)) {
      // Not inside the initiating call: a failed encode completes like any other result.
      auto ex = asio::get_associated_executor(handler, stream->get_executor());
      auto alloc = asio::get_associated_allocator(handler);
      asio::post(ex, asio::bind_allocator(alloc, [h = std::forward<Handler>(handler), ec]() mutable {
                   std::move(h)(ec, 0);
                 }));
      return;
    }
    asio::async_write(*stream, frame_buffers(*frame),
                      write_frame_handler<std::decay_t<Handler>>{std::forward<Handler>(handler)});
  }
};

struct initiate_write_encoded {
  template <class Handler, class AsyncWriteStream>
  void operator()(Handler&& handler, AsyncWriteStream* stream, const encoded_frame* frame) const {
    asio::async_write(*stream, frame_buffers(*frame),
                      write_frame_handler<std::decay_t<Handler>>{std::forward<Handler>(handler)});
  }
};
}  // namespace detail

/// Writes `frame` (prefix, payload, suffix) in one gathered write sequence.
template <class AsyncWriteStream,
          class CompletionToken =
              asio::default_completion_token_t<typename AsyncWriteStream::executor_type>>
auto async_write_frame(AsyncWriteStream& stream, const encoded_frame& frame,
                       CompletionToken&& token =
                           asio::default_completion_token_t<typename AsyncWriteStream::executor_type>()) {
  return asio::async_initiate<CompletionToken, void(std::error_code, std::size_t)>(
      detail::initiate_write_encoded{}, token, &stream, &frame);
}

/// Encodes `payload` with `encoder` (line_encoder, length_prefix_encoder, or one with
/// `std::error_code encode(std::span<const std::byte>, encoded_frame&)`) into `frame`, then writes
/// it. `frame` and `payload` must outlive the operation.
template <class AsyncWriteStream, class Encoder,
          class CompletionToken =
              asio::default_completion_token_t<typename AsyncWriteStream::executor_type>>
auto async_write_frame(AsyncWriteStream& stream, const Encoder& encoder,
                       std::span<const std::byte> payload, encoded_frame& frame,
                       CompletionToken&& token =
                           asio::default_completion_token_t<typename AsyncWriteStream::executor_type>()) {
  return asio::async_initiate<CompletionToken, void(std::error_code, std::size_t)>(
      detail::initiate_write_frame<AsyncWriteStream, Encoder>{&stream}, token, &encoder, payload,
      &frame);
}

}  // namespace wirebench

/// The write's handler carries the caller's handler's executor, allocator and cancellation slot.
template <template <class, class> class Associator, class Handler, class DefaultCandidate>
struct asio::associator<Associator, wirebench::detail::write_frame_handler<Handler>, DefaultCandidate>
    : Associator<Handler, DefaultCandidate> {
  static typename Associator<Handler, DefaultCandidate>::type get(
      const wirebench::detail::write_frame_handler<Handler>& h,
      const DefaultCandidate& c = DefaultCandidate()) noexcept {
    return Associator<Handler, DefaultCandidate>::get(h.handler, c);
  }
};
