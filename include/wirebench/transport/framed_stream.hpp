#pragma once
/// \file
/// framed_stream: a stream, its read buffer, a decoder, an encoder and timeouts in one object, in
/// the manner of Beast's tcp_stream: `co_await s.async_read_frame()` and
/// `co_await s.async_write_frame(payload)` on any Asio stream (TCP by default, Unix, ssl::stream).
///
///   wirebench::framed_stream<wirebench::line_decoder, wirebench::line_encoder> s(std::move(socket));
///   s.set_read_timeout(5s);
///   std::span<const std::byte> request = co_await s.async_read_frame(asio::use_awaitable);
///   co_await s.async_write_frame(reply, asio::use_awaitable);
///
/// - TCP_NODELAY is set on the socket (framed_stream_options::no_delay; a Unix socket ignores it):
///   without it small pipelined frames wait on the peer's delayed ACK (docs/LIBRARY.md).
/// - Timeouts (0: none): a read that brings no whole frame within read_timeout fails with
///   errc::read_timeout, and the bytes it took stay in the buffer (the stream goes on); a write
///   not taken within write_timeout fails with errc::write_timeout and closes the stream, since a
///   frame half written cannot be taken back. Both compare equal to std::errc::timed_out and to
///   wirebench::condition::timed_out.
/// - Operations, errors and cancellation are async_read_frame()'s and async_write_frame()'s (the
///   caller's cancellation slot reaches them: terminal, partial and total; errc::canceled), with
///   any completion token, the stream's default when none is given. One read and one write may
///   be under way at once, as for the stream's own operations; the frame a read returns views the
///   buffer until the next read; the payload of a write must outlive it.
/// - Threading: as for the stream. The stream object must outlive its operations.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>

#include <asio/associated_executor.hpp>
#include <asio/async_result.hpp>
#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/cancellation_type.hpp>
#include <asio/compose.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/steady_timer.hpp>

#include "wirebench/core/encoded_frame.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/transport/async_read_frame.hpp"
#include "wirebench/transport/async_write_frame.hpp"
#include "wirebench/transport/frame_buffer.hpp"

namespace wirebench {

/// Settings of a framed_stream.
struct framed_stream_options {
  /// The read buffer's limit: at least the decoder's frame limit plus its framing bytes.
  std::size_t max_buffer_bytes = (1 << 20) + 64;
  /// A read that brings no whole frame in this time fails (errc::read_timeout). 0: none.
  std::chrono::steady_clock::duration read_timeout{};
  /// A write not finished in this time fails (errc::write_timeout) and closes the stream. 0: none.
  std::chrono::steady_clock::duration write_timeout{};
  /// TCP_NODELAY on the socket (ignored where it is not TCP).
  bool no_delay = true;
};

/// A stream with framing and timeouts (see above).
template <class Decoder, class Encoder, class Stream = asio::ip::tcp::socket>
class framed_stream {
 public:
  using executor_type = typename Stream::executor_type;
  using next_layer_type = Stream;
  using duration = std::chrono::steady_clock::duration;

  /// Takes the stream (connected or not: TCP_NODELAY is set now if it is open, else before the
  /// first write), and the codec's two halves with their limits.
  explicit framed_stream(Stream stream, Decoder decoder = Decoder(), Encoder encoder = Encoder(),
                         framed_stream_options options = {})
      : stream_(std::move(stream)),
        decoder_(std::move(decoder)),
        encoder_(std::move(encoder)),
        options_(options),
        buffer_(options.max_buffer_bytes),
        read_(stream_.get_executor()),
        write_(stream_.get_executor()) {
    set_no_delay();
  }
  /// Not copyable or movable: operations under way refer to it.
  framed_stream(const framed_stream&) = delete;
  framed_stream& operator=(const framed_stream&) = delete;

  executor_type get_executor() noexcept { return stream_.get_executor(); }
  /// The stream underneath (to connect it, read its endpoints, shut it down).
  Stream& next_layer() noexcept { return stream_; }
  const Stream& next_layer() const noexcept { return stream_; }
  Decoder& decoder() noexcept { return decoder_; }
  Encoder& encoder() noexcept { return encoder_; }
  /// The read buffer: bytes read and not yet decoded (a DynamicBuffer through dynamic_buffer()).
  frame_buffer& buffer() noexcept { return buffer_; }

  /// Timeouts for the operations started from now on (0: none).
  void set_read_timeout(duration d) noexcept { options_.read_timeout = d; }
  void set_write_timeout(duration d) noexcept { options_.write_timeout = d; }

  /// Closes the stream's socket: operations under way complete with errc::canceled.
  void close() {
    std::error_code ignored;
    stream_.lowest_layer().close(ignored);
  }

  /// The next frame. Completion: `void(std::error_code, std::span<const std::byte> frame)`.
  template <class CompletionToken = asio::default_completion_token_t<executor_type>>
  auto async_read_frame(CompletionToken&& token = asio::default_completion_token_t<executor_type>()) {
    return asio::async_compose<CompletionToken, void(std::error_code, std::span<const std::byte>)>(
        read_op{this}, token, stream_);
  }

  /// Encodes `payload` and writes it whole. Completion: `void(std::error_code, std::size_t)`.
  template <class CompletionToken = asio::default_completion_token_t<executor_type>>
  auto async_write_frame(std::span<const std::byte> payload,
                         CompletionToken&& token = asio::default_completion_token_t<executor_type>()) {
    return asio::async_compose<CompletionToken, void(std::error_code, std::size_t)>(
        write_op{this, payload}, token, stream_);
  }
  /// The same for text.
  template <class CompletionToken = asio::default_completion_token_t<executor_type>>
  auto async_write_frame(std::string_view payload,
                         CompletionToken&& token = asio::default_completion_token_t<executor_type>()) {
    return async_write_frame(std::as_bytes(std::span(payload.data(), payload.size())),
                             std::forward<CompletionToken>(token));
  }

 private:
  // One direction's deadline: a timer that, when it fires, cancels that direction's operation
  // through its own cancellation signal (not the stream's cancel(), which would stop both).
  struct direction {
    explicit direction(const executor_type& ex) : timer(ex) {}
    asio::steady_timer timer;
    asio::cancellation_signal cancel;
    std::uint64_t generation = 0;
    bool timed_out = false;

    // Starts the deadline of an operation whose handler runs on `ex` (the expiry is emitted
    // there, as Asio requires of a cancellation).
    template <class Executor>
    void arm(duration d, const Executor& ex) {
      timed_out = false;
      ++generation;
      if (d <= duration::zero()) return;
      timer.expires_after(d);
      // Runs on `ex` when the deadline passes or is canceled; the stream outlives its operations,
      // and a canceled wait returns before touching it.
      timer.async_wait(asio::bind_executor(ex, [this, g = generation](std::error_code ec) {
        if (ec || g != generation) return;
        timed_out = true;
        cancel.emit(asio::cancellation_type::terminal);
      }));
    }
    // The operation completed: its deadline is off. Whether it had expired.
    bool disarm() {
      ++generation;
      timer.cancel();
      return timed_out;
    }
  };

  // Connects the caller's cancellation to `d`'s signal, and starts `d`'s deadline.
  template <class Self>
  void start(Self& self, direction& d, duration timeout) {
    self.reset_cancellation_state(asio::enable_total_cancellation());
    auto slot = self.get_cancellation_state().slot();
    if (slot.is_connected())
      slot.assign([signal = &d.cancel](asio::cancellation_type type) { signal->emit(type); });
    d.arm(timeout, asio::get_associated_executor(self, stream_.get_executor()));
  }

  struct read_op {
    framed_stream* s;
    template <class Self>
    void operator()(Self& self) {
      s->start(self, s->read_, s->options_.read_timeout);
      wirebench::async_read_frame(s->stream_, s->buffer_, s->decoder_,
                                  asio::bind_cancellation_slot(s->read_.cancel.slot(), std::move(self)));
    }
    template <class Self>
    void operator()(Self& self, std::error_code ec, std::span<const std::byte> frame) {
      if (s->read_.disarm() && ec == errc::canceled) ec = errc::read_timeout;
      self.complete(ec, frame);
    }
  };

  struct write_op {
    framed_stream* s;
    std::span<const std::byte> payload;
    template <class Self>
    void operator()(Self& self) {
      s->set_no_delay();
      s->start(self, s->write_, s->options_.write_timeout);
      wirebench::async_write_frame(s->stream_, s->encoder_, payload, s->frame_,
                                   asio::bind_cancellation_slot(s->write_.cancel.slot(), std::move(self)));
    }
    template <class Self>
    void operator()(Self& self, std::error_code ec, std::size_t n) {
      if (s->write_.disarm() && ec == errc::canceled) {
        ec = errc::write_timeout;
        s->close();  // part of a frame may have gone: the stream cannot go on
      }
      self.complete(ec, n);
    }
  };

  void set_no_delay() {
    if (!options_.no_delay || no_delay_set_ || !stream_.lowest_layer().is_open()) return;
    std::error_code ignored;  // not TCP (a Unix socket): nothing to set
    stream_.lowest_layer().set_option(asio::ip::tcp::no_delay(true), ignored);
    no_delay_set_ = true;
  }

  Stream stream_;
  Decoder decoder_;
  Encoder encoder_;
  framed_stream_options options_;
  frame_buffer buffer_;
  encoded_frame frame_;  // the frame being written (its header bytes live here)
  direction read_, write_;
  bool no_delay_set_ = false;
};

}  // namespace wirebench
