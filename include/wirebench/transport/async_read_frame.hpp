#pragma once
/// \file
/// async_read_frame(): the next frame of any Asio AsyncReadStream (TCP, Unix, asio::ssl::stream),
/// as a composed operation that takes any completion token: a callback, asio::use_awaitable,
/// asio::use_future, asio::experimental::deferred, ...
///
/// Completion signature: `void(std::error_code, std::span<const std::byte> frame)`. The frame
/// views the frame_buffer and stays valid until the next async_read_frame() on that buffer.
///
/// Errors (wirebench's category unless said): frame_too_long (over the decoder's limit; with
/// oversize_policy::resync the stream goes on and the next read returns the next frame),
/// corrupt_frame, truncated_frame (the stream ended inside a frame), peer_closed (the stream
/// ended between frames), asio::error::operation_aborted (canceled), or the stream's own error.
///
/// Cancellation: the token's cancellation slot reaches the stream's read (terminal, partial and
/// total cancellation, as the stream supports them). A canceled read may have taken bytes into
/// the buffer; they stay there for the next read.
///
/// Threading: as for the stream's own operations: one read at a time per stream and buffer, from
/// the stream's executor. A frame already in the buffer completes without reading, through a
/// post to the stream's executor (never inside the initiating call).
#include <cstddef>
#include <span>
#include <system_error>
#include <utility>

#include <asio/async_result.hpp>
#include <asio/awaitable.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/buffer.hpp>
#include <asio/compose.hpp>
#include <asio/error.hpp>
#include <asio/post.hpp>

#include "wirebench/codec/decode_result.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/transport/frame_buffer.hpp"

namespace wirebench {

namespace detail {

template <class AsyncReadStream, class Decoder>
class read_frame_op {
 public:
  read_frame_op(AsyncReadStream& stream, frame_buffer& buffer, Decoder& decoder)
      : stream_(stream), buffer_(buffer), decoder_(decoder) {}

  // Runs first from the initiation, then after each read (ec, n) or after the post of a result
  // that needed no read; on the stream's executor. The stream, buffer and decoder are the
  // caller's, and must outlive the operation.
  template <class Self>
  void operator()(Self& self, std::error_code ec = {}, std::size_t n = 0) {
    switch (step_) {
      case step::start:
        buffer_.release_held();
        break;
      case step::reading:
        if (ec == asio::error::eof) return self.complete(eof_error(), no_frame);
        if (ec) return self.complete(ec, no_frame);
        buffer_.commit(n);
        break;
      case step::posted:  // the result was computed before; the post only made it asynchronous
        return self.complete(result_, frame_);
    }
    for (;;) {
      const decode_result r = decoder_.decode(buffer_.data());
      switch (r.status) {
        case decode_status::frame:
          buffer_.hold(r.consumed);
          return finish(self, std::error_code{}, r.frame);
        case decode_status::too_large:
          buffer_.consume(r.consumed);  // resync: the frame's bytes so far; fail: nothing
          return finish(self, errc::frame_too_long, no_frame);
        case decode_status::corrupt:
          return finish(self, errc::corrupt_frame, no_frame);
        case decode_status::need_more:
          buffer_.consume(r.consumed);  // bytes a resyncing decoder has discarded
          break;
      }
      const std::span<std::byte> room = buffer_.prepare();
      // The decoder's limit should have said so first; this guards a buffer smaller than it.
      if (room.empty()) return finish(self, errc::frame_too_long, no_frame);
      step_ = step::reading;
      stream_.async_read_some(asio::buffer(room.data(), room.size()), std::move(self));
      return;
    }
  }

 private:
  enum class step { start, reading, posted };
  static constexpr std::span<const std::byte> no_frame{};

  // A result found before any read is posted, so the handler never runs inside the initiation.
  template <class Self>
  void finish(Self& self, std::error_code ec, std::span<const std::byte> frame) {
    if (step_ != step::start) return self.complete(ec, frame);
    step_ = step::posted;
    result_ = ec;
    frame_ = frame;
    asio::post(std::move(self));  // on the handler's own executor: no hop through the stream's
  }

  std::error_code eof_error() const {
    bool mid = buffer_.size() != 0;
    if constexpr (requires { decoder_.mid_frame(); }) mid = mid || decoder_.mid_frame();
    return mid ? make_error_code(errc::truncated_frame) : make_error_code(errc::peer_closed);
  }

  AsyncReadStream& stream_;
  frame_buffer& buffer_;
  Decoder& decoder_;
  step step_ = step::start;
  std::error_code result_;
  std::span<const std::byte> frame_;
};

}  // namespace detail

/// Reads from `stream` into `buffer` until `decoder` (any sans-IO decoder: line_decoder,
/// length_prefix_decoder, or one with `decode_result decode(std::span<const std::byte>)`) has a
/// frame. `stream`, `buffer` and `decoder` must outlive the operation.
template <class AsyncReadStream, class Decoder, class CompletionToken>
auto async_read_frame(AsyncReadStream& stream, frame_buffer& buffer, Decoder& decoder,
                      CompletionToken&& token) {
  return asio::async_compose<CompletionToken, void(std::error_code, std::span<const std::byte>)>(
      detail::read_frame_op<AsyncReadStream, Decoder>(stream, buffer, decoder), token, stream);
}

/// The coroutine form, for `asio::use_awaitable`: the same reads, errors (thrown as
/// std::system_error, as use_awaitable does) and cancellation (the coroutine's cancellation state
/// reaches the stream's read), without the composed operation's machinery. A frame already in the
/// buffer is returned without suspending; through async_compose each frame cost a post and two
/// hops of type-erased executor (bench/micro/frame_io_bench.cpp).
template <class AsyncReadStream, class Decoder, class Executor>
asio::awaitable<std::span<const std::byte>, Executor> async_read_frame(
    AsyncReadStream& stream, frame_buffer& buffer, Decoder& decoder,
    asio::use_awaitable_t<Executor>) {
  buffer.release_held();
  for (;;) {
    const decode_result r = decoder.decode(buffer.data());
    switch (r.status) {
      case decode_status::frame:
        buffer.hold(r.consumed);
        co_return r.frame;
      case decode_status::too_large:
        buffer.consume(r.consumed);
        throw std::system_error(errc::frame_too_long);
      case decode_status::corrupt:
        throw std::system_error(errc::corrupt_frame);
      case decode_status::need_more:
        buffer.consume(r.consumed);
        break;
    }
    const std::span<std::byte> room = buffer.prepare();
    if (room.empty()) throw std::system_error(errc::frame_too_long);
    const auto [ec, n] = co_await stream.async_read_some(
        asio::buffer(room.data(), room.size()),
        asio::experimental::as_tuple(asio::use_awaitable_t<Executor>{}));
    if (ec == asio::error::eof) {
      bool mid = buffer.size() != 0;
      if constexpr (requires { decoder.mid_frame(); }) mid = mid || decoder.mid_frame();
      throw std::system_error(mid ? errc::truncated_frame : errc::peer_closed);
    }
    if (ec) throw std::system_error(ec);
    buffer.commit(n);
  }
}

}  // namespace wirebench
