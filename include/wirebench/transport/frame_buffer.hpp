#pragma once
/// \file
/// The read side's buffer of a framed stream: bytes taken from the stream that the decoder has not
/// used yet. One per stream, kept across async_read_frame() calls (a read may bring the start of
/// the next frame), and a connection's (connection.hpp). Grows by doubling up to a limit, never
/// past it.
#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// The read buffer of one framed stream (see above). Not thread-safe: one stream's reader only.
class WIREBENCH_API frame_buffer {
 public:
  /// `max_bytes`: the most it holds, which must cover one frame and its framing (the decoder's
  /// limit plus a header); it starts at `initial_bytes` (at most `max_bytes`).
  explicit frame_buffer(std::size_t max_bytes = (1 << 20) + 64, std::size_t initial_bytes = 4096);

  /// The bytes not used yet.
  std::span<const std::byte> data() const { return {storage_.data() + begin_, end_ - begin_}; }
  /// Number of bytes in data().
  std::size_t size() const { return end_ - begin_; }
  /// Drops `n` bytes from the front of data().
  void consume(std::size_t n);

  /// Room after data() for the next read: moves data() to the front when less than `min_room`
  /// is left behind it (a connection asks for a few KiB: a read that brings little costs a
  /// syscall as dear as one that fills), and grows when it is full. Empty when data() fills the
  /// buffer at its limit.
  std::span<std::byte> prepare(std::size_t min_room = 1);
  /// `n` bytes were read into what prepare() returned.
  void commit(std::size_t n) { end_ += n; }
  /// Makes room for exactly `n` more bytes after data() (moving data() to the front, growing),
  /// for a caller that needs that much at once (frame_dynamic_buffer). False, changing nothing,
  /// when size() + n is over max_bytes().
  bool reserve(std::size_t n);
  /// Drops `n` bytes from the back of data() (bytes committed but not wanted after all).
  void shrink(std::size_t n) { end_ -= std::min(n, size()); }
  /// The whole storage: data() starts at offset `begin` of it (frame_dynamic_buffer's views).
  std::span<std::byte> storage() { return storage_; }
  /// The offset of data() in storage().
  std::size_t begin() const { return begin_; }
  /// Bytes the storage holds now (it grows up to max_bytes()).
  std::size_t capacity() const { return storage_.size(); }

  /// The limit it never grows past.
  std::size_t max_bytes() const { return max_bytes_; }

  /// The frame async_read_frame() returned last stays in data() (the caller views it) until the
  /// next read starts, which drops it: `held` bytes.
  void hold(std::size_t held) { held_ = held; }
  /// Drops the held frame's bytes (see hold()) from the front of data().
  void release_held() {
    consume(held_);
    held_ = 0;
  }

 private:
  std::vector<std::byte> storage_;
  std::size_t max_bytes_;
  std::size_t begin_ = 0, end_ = 0;
  std::size_t held_ = 0;
};

}  // namespace wirebench
