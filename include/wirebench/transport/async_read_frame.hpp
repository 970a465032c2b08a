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
/// ended between frames), canceled, or the stream's own error. A canceled read reports
/// errc::canceled, not Asio's operation_aborted, so that every cancellation of the library
/// compares equal to std::errc::operation_canceled (Asio 1.22's own code compares equal to no
/// std::errc) and to wirebench::condition::canceled.
///
/// Cancellation: the token's cancellation slot reaches the stream's read (terminal, partial and
/// total cancellation, as the stream supports them). A canceled read may have taken bytes into
/// the buffer; they stay there for the next read.
///
/// Threading: as for the stream's own operations: one read at a time per stream and buffer, from
/// the stream's executor. A result found without reading (a frame already in the buffer, or a
/// decoder's error) is posted to the handler's executor (the stream's unless the handler has
/// one): the handler never runs inside the initiating call. With asio::use_awaitable, see that
/// overload below: a buffered frame is returned without posting. As with asio::async_read,
/// the stream's context is kept busy by the pending read, not by the operation as a whole.
#include <cstddef>
#include <memory>
#include <span>
#include <system_error>
#include <type_traits>
#include <utility>

#include <asio/associated_allocator.hpp>
#include <asio/associated_executor.hpp>
#include <asio/associator.hpp>
#include <asio/async_result.hpp>
#include <asio/awaitable.hpp>
#include <asio/buffer.hpp>
#include <asio/error.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/handler_continuation_hook.hpp>
#include <asio/post.hpp>
#include <asio/use_awaitable.hpp>

#include "wirebench/core/frame_decoder.hpp"
#include "wirebench/core/decode_result.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/transport/frame_buffer.hpp"

namespace wirebench {

namespace detail {

/// What one decode of the buffer found: a frame (held in the buffer until the next read starts),
/// an error, or neither yet (`need_more`: read, then decode again).
struct frame_step {
  std::error_code ec;
  std::span<const std::byte> frame;
  bool need_more = false;
};

/// True for asio::use_awaitable_t<E>: the token whose coroutine form is below.
template <class Token>
struct is_use_awaitable : std::false_type {};
template <class Executor>
struct is_use_awaitable<asio::use_awaitable_t<Executor>> : std::true_type {};

/// Decodes what `buffer` holds (see frame_step).
template <frame_decoder Decoder>
frame_step decode_frame(frame_buffer& buffer, Decoder& decoder) {
  const decode_result r = decoder.decode(buffer.data());
  switch (r.status) {
    case decode_status::frame:
      buffer.hold(r.consumed);
      return {{}, r.frame, false};
    case decode_status::too_large:
      buffer.consume(r.consumed);  // resync: the frame's bytes so far; fail: nothing
      return {decoder.error(), {}, false};
    case decode_status::corrupt:
      return {decoder.error(), {}, false};
    case decode_status::need_more:
      break;
  }
  if (r.consumed != 0) buffer.consume(r.consumed);  // bytes a resyncing decoder has discarded
  return {{}, {}, true};
}

/// The stream's error as the library reports it: Asio's operation_aborted becomes errc::canceled
/// (see above); eof is handled by the caller, which knows whether a frame was under way.
inline std::error_code library_error(std::error_code ec) {
  return ec == asio::error::operation_aborted ? make_error_code(errc::canceled) : ec;
}

/// The error for a stream that ended: inside a frame or between frames.
template <class Decoder>
std::error_code end_of_stream_error(const frame_buffer& buffer, const Decoder& decoder) {
  bool mid = buffer.size() != 0;
  if constexpr (requires { decoder.mid_frame(); }) mid = mid || decoder.mid_frame();
  return mid ? make_error_code(errc::truncated_frame) : make_error_code(errc::peer_closed);
}

/// A result the operation below posts: the operation (and so its handler) and what to call the
/// handler with. The result stays out of the operation, which every read moves.
template <class Op>
struct posted_result {
  Op op;
  frame_step step;
  /// Runs when the post comes round, on the handler's executor; owns the operation until then.
  void operator()() { op.complete(step); }
  using executor_type = typename Op::executor_type;
  executor_type get_executor() const noexcept { return op.get_executor(); }
  using allocator_type = asio::associated_allocator_t<Op>;
  allocator_type get_allocator() const noexcept { return asio::get_associated_allocator(op); }
};

/// The operation: the handler of each of its reads, and of the post of a result found before
/// any read. Written by hand rather than with asio::async_compose, which adds to every
/// operation a work guard, a cancellation state (that lets only terminal cancellation through)
/// and a hop through the handler's executor: here each read carries the handler's executor,
/// allocator and cancellation slot itself (get_executor() and the associator at the end), as
/// Asio's own composed operations do, so the read completes on the handler's executor and the
/// handler is called from there directly.
template <class AsyncReadStream, class Decoder, class Handler>
class read_frame_op {
 public:
  read_frame_op(AsyncReadStream& stream, frame_buffer& buffer, Decoder& decoder, Handler handler)
      : stream_(stream), buffer_(buffer), decoder_(decoder), handler_(std::move(handler)) {}

  /// Reads more bytes; this operation is the read's handler. A buffer full at its limit fails
  /// instead (the decoder's limit should have said so first; this guards a buffer smaller).
  void read() {
    const std::span<std::byte> room = buffer_.prepare();
    if (room.empty()) [[unlikely]] {
      const frame_step full{errc::frame_too_long, {}, false};
      if (reads_ == 0) return post(full);
      return std::move(handler_)(full.ec, full.frame);
    }
    ++reads_;
    stream_.async_read_some(asio::buffer(room.data(), room.size()), std::move(*this));
  }

  /// Posts a result found before any read, so that the handler never runs inside the
  /// initiating call.
  void post(const frame_step& step) {
    asio::post(posted_result<read_frame_op>{std::move(*this), step});
  }

  /// Runs when a read completes, on the handler's executor (the stream dispatches there). The
  /// stream, buffer and decoder are the caller's and outlive the operation; the handler is this
  /// operation's until it is called.
  void operator()(std::error_code ec, std::size_t n) {
    if (ec) {
      ec = ec == asio::error::eof ? end_of_stream_error(buffer_, decoder_) : library_error(ec);
      return std::move(handler_)(ec, std::span<const std::byte>{});
    }
    buffer_.commit(n);
    const frame_step step = decode_frame(buffer_, decoder_);
    if (step.need_more) return read();
    std::move(handler_)(step.ec, step.frame);  // the read made it asynchronous
  }

  /// Runs when the post of a result found before any read comes round, on the handler's executor.
  void complete(const frame_step& step) { std::move(handler_)(step.ec, step.frame); }

  /// The handler's executor, else the stream's: where the reads complete and a result is posted.
  using executor_type =
      asio::associated_executor_t<Handler, decltype(std::declval<AsyncReadStream&>().get_executor())>;
  executor_type get_executor() const noexcept {
    return asio::get_associated_executor(handler_, stream_.get_executor());
  }

  /// Reads after the first continue this operation (Asio may then queue them without a lock).
  friend bool asio_handler_is_continuation(read_frame_op* op) {
    using asio::asio_handler_is_continuation;
    return op->reads_ > 1 || asio_handler_is_continuation(std::addressof(op->handler_));
  }

  /// For the associator below.
  const Handler& handler() const noexcept { return handler_; }

 private:
  AsyncReadStream& stream_;
  frame_buffer& buffer_;
  Decoder& decoder_;
  Handler handler_;
  unsigned reads_ = 0;
};

/// Starts the operation when the token says so (at once for a callback, when invoked for
/// deferred, ...).
template <class AsyncReadStream>
struct initiate_read_frame {
  AsyncReadStream* stream;

  template <class Handler, class Decoder>
  void operator()(Handler&& handler, frame_buffer* buffer, Decoder* decoder) const {
    read_frame_op<AsyncReadStream, Decoder, std::decay_t<Handler>> op(*stream, *buffer, *decoder,
                                                                     std::forward<Handler>(handler));
    buffer->release_held();
    const frame_step step = decode_frame(*buffer, *decoder);
    if (!step.need_more) return op.post(step);
    op.read();
  }
};

}  // namespace detail

template <class AsyncReadStream, class Decoder, class Executor>
asio::awaitable<std::span<const std::byte>, Executor> async_read_frame(
    AsyncReadStream& stream, frame_buffer& buffer, Decoder& decoder,
    asio::use_awaitable_t<Executor>);

/// Reads from `stream` into `buffer` until `decoder` (any sans-IO decoder: line_decoder,
/// length_prefix_decoder, or one with `decode_result decode(std::span<const std::byte>)`) has a
/// frame. `stream`, `buffer` and `decoder` must outlive the operation. Without a token, the
/// stream's executor's default one (a stream made with `asio::use_awaitable_t<>::as_default_on`
/// gives awaitables), as Asio's own operations do.
template <class AsyncReadStream, class Decoder,
          class CompletionToken =
              asio::default_completion_token_t<typename AsyncReadStream::executor_type>>
auto async_read_frame(AsyncReadStream& stream, frame_buffer& buffer, Decoder& decoder,
                      CompletionToken&& token =
                          asio::default_completion_token_t<typename AsyncReadStream::executor_type>()) {
  if constexpr (detail::is_use_awaitable<std::decay_t<CompletionToken>>::value) {
    // A default use_awaitable token takes the coroutine form below, as an explicit one does.
    return async_read_frame(stream, buffer, decoder, std::decay_t<CompletionToken>{});
  } else {
    return asio::async_initiate<CompletionToken, void(std::error_code, std::span<const std::byte>)>(
        detail::initiate_read_frame<AsyncReadStream>{&stream}, token, &buffer, &decoder);
  }
}

/// The coroutine form, for `asio::use_awaitable`: the same reads, errors (thrown as
/// std::system_error, as use_awaitable does) and cancellation (the coroutine's cancellation state
/// reaches the stream's read). A coroutine of its own rather than the operation above: a frame
/// already in the buffer then comes back without suspending or posting (at 16 frames per read it
/// costs about what the callback form does: 43 against 41 ns per frame here), while a frame that
/// needs a read pays Asio's co_await of that read, which no implementation here can avoid
/// (bench/micro/frame_io_floor_bench.cpp).
/// Like every awaitable, nothing happens until it is awaited.
template <class AsyncReadStream, class Decoder, class Executor>
asio::awaitable<std::span<const std::byte>, Executor> async_read_frame(
    AsyncReadStream& stream, frame_buffer& buffer, Decoder& decoder,
    asio::use_awaitable_t<Executor>) {
  buffer.release_held();
  for (;;) {
    const detail::frame_step step = detail::decode_frame(buffer, decoder);
    if (!step.need_more) {
      if (step.ec) throw std::system_error(step.ec);
      co_return step.frame;
    }
    const std::span<std::byte> room = buffer.prepare();
    if (room.empty()) throw std::system_error(errc::frame_too_long);
    const auto [ec, n] = co_await stream.async_read_some(
        asio::buffer(room.data(), room.size()),
        asio::experimental::as_tuple(asio::use_awaitable_t<Executor>{}));
    if (ec == asio::error::eof) throw std::system_error(detail::end_of_stream_error(buffer, decoder));
    if (ec) throw std::system_error(detail::library_error(ec));
    buffer.commit(n);
  }
}

}  // namespace wirebench

/// Each read of the operation carries the final handler's allocator and cancellation slot (its
/// executor comes from read_frame_op::get_executor()).
template <template <class, class> class Associator, class AsyncReadStream, class Decoder,
          class Handler, class DefaultCandidate>
struct asio::associator<Associator,
                        wirebench::detail::read_frame_op<AsyncReadStream, Decoder, Handler>,
                        DefaultCandidate> : Associator<Handler, DefaultCandidate> {
  static typename Associator<Handler, DefaultCandidate>::type get(
      const wirebench::detail::read_frame_op<AsyncReadStream, Decoder, Handler>& op,
      const DefaultCandidate& c = DefaultCandidate()) noexcept {
    return Associator<Handler, DefaultCandidate>::get(op.handler(), c);
  }
};
