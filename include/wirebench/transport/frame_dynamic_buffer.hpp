#pragma once
/// \file
/// A frame_buffer seen as an Asio DynamicBuffer (the v2 model): `asio::async_read_until`,
/// `asio::async_read` with a completion condition, and anything else that takes one, read into
/// the same bytes async_read_frame() decodes. A stream may so begin with Asio's own reads (a
/// header line, a handshake) and go on with frames, and bytes one read brought past what it
/// wanted stay for the other.
///
///   wirebench::frame_buffer buffer;
///   std::size_t n = co_await asio::async_read_until(socket, wirebench::dynamic_buffer(buffer),
///                                                   "\r\n\r\n", asio::use_awaitable);
///   buffer.consume(n);                                   // the header, as with any DynamicBuffer
///   auto frame = co_await wirebench::async_read_frame(socket, buffer, decoder, asio::use_awaitable);
///
/// The buffer keeps its limit: growing past max_bytes() throws std::length_error, as Asio's
/// DynamicBuffers do past max_size() (asio::async_read_until then completes with
/// asio::error::not_found). The adaptor only refers to the buffer, which must outlive it; it is
/// cheap to copy, as Asio's operations do. Its views (data()) are invalidated by grow(), as for
/// every DynamicBuffer.
#include <cstddef>
#include <stdexcept>

#include <asio/buffer.hpp>

#include "wirebench/transport/frame_buffer.hpp"

namespace wirebench {

/// A frame_buffer as an Asio DynamicBuffer_v2 (see above).
class frame_dynamic_buffer {
 public:
  using const_buffers_type = asio::const_buffer;
  using mutable_buffers_type = asio::mutable_buffer;

  /// Refers to `buffer` (which must outlive it).
  explicit frame_dynamic_buffer(frame_buffer& buffer) noexcept : buffer_(&buffer) {}

  /// Bytes held.
  std::size_t size() const noexcept { return buffer_->size(); }
  /// The buffer's limit.
  std::size_t max_size() const noexcept { return buffer_->max_bytes(); }
  /// Bytes it holds now without growing.
  std::size_t capacity() const noexcept { return buffer_->capacity() - buffer_->begin(); }

  /// `n` bytes from `pos` of what it holds (fewer at the end).
  mutable_buffers_type data(std::size_t pos, std::size_t n) noexcept {
    return asio::buffer(asio::mutable_buffer(buffer_->storage().data() + buffer_->begin(),
                                             buffer_->size()) + pos, n);
  }
  /// The same, read-only.
  const_buffers_type data(std::size_t pos, std::size_t n) const noexcept {
    return asio::buffer(asio::const_buffer(buffer_->storage().data() + buffer_->begin(),
                                           buffer_->size()) + pos, n);
  }
  /// Adds `n` bytes at the end (to be filled through data()); std::length_error past max_size().
  void grow(std::size_t n) {
    if (!buffer_->reserve(n)) throw std::length_error("wirebench::frame_buffer: over its max_bytes");
    buffer_->commit(n);
  }
  /// Drops `n` bytes from the end.
  void shrink(std::size_t n) { buffer_->shrink(n); }
  /// Drops `n` bytes from the front.
  void consume(std::size_t n) { buffer_->consume(n); }

 private:
  frame_buffer* buffer_;
};

/// `buffer` as an Asio DynamicBuffer. A frame async_read_frame() returned last is dropped first
/// (its view ends here, as at the start of the next async_read_frame()).
inline frame_dynamic_buffer dynamic_buffer(frame_buffer& buffer) {
  buffer.release_held();
  return frame_dynamic_buffer(buffer);
}

}  // namespace wirebench
