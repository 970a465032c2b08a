#pragma once
// Output waiting for one writev, sans-IO. Small frames are copied into one contiguous arena, so a
// burst of replies becomes a single iovec (as Redis coalesces its reply buffer); a large payload
// handed over as std::string is kept as its own segment and never copied.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "wirebench/core/api.hpp"
#include "wirebench/core/encoded_frame.hpp"

namespace wirebench {

/// Output waiting for one writev (see above). Not thread-safe: one owner at a time.
class WIREBENCH_API gather_queue {
 public:
  /// Payloads longer than this are kept as their own segment when handed over by value.
  static constexpr std::size_t copy_threshold = 1024;

  /// An empty queue.
  gather_queue() = default;
  /// Takes `other`'s output; `other` is left empty.
  gather_queue(gather_queue&& other) noexcept { swap(other); }
  /// Takes `other`'s output, dropping this queue's; `other` is left empty.
  gather_queue& operator=(gather_queue&& other) noexcept {
    gather_queue(std::move(other)).swap(*this);
    return *this;
  }
  /// Exchanges the contents of the two queues.
  void swap(gather_queue& other) noexcept;

  /// Copies the frame (prefix, payload, suffix): for payloads the caller does not keep alive.
  void append(const encoded_frame& frame);
  /// Takes ownership of `payload`; copies it only if it is small enough to coalesce.
  void append(std::span<const std::byte> prefix, std::string&& payload,
              std::span<const std::byte> suffix);
  /// Copies `bytes` into the arena, counted as one frame.
  void append_bytes(std::span<const std::byte> bytes);
  /// Room for `size` bytes at the arena's tail, counted as one frame: the caller writes all of
  /// them before the next call on this queue (a codec that encodes in place, sparing a copy).
  std::byte* append_in_place(std::size_t size) {
    const std::size_t offset = arena_size_;
    std::byte* at = grow_arena(size);
    extend(offset, size);
    ++frames_;
    return at;
  }

  /// Total bytes queued.
  std::size_t bytes() const { return bytes_; }
  /// Frames appended since the last clear().
  std::size_t frames() const { return frames_; }
  /// True when no bytes are queued.
  bool empty() const { return bytes_ == 0; }

  /// Calls f(std::span<const std::byte>) for each contiguous segment, in order. The spans stay valid
  /// until the next append or clear.
  template <typename F>
  void for_each_segment(F&& f) const {
    for (const segment& s : segments_) {
      const std::byte* base = s.owned == no_owned
                                  ? arena_.get()
                                  : reinterpret_cast<const std::byte*>(owned_[s.owned].data());
      f(std::span<const std::byte>(base + s.offset, s.size));
    }
  }
  /// Number of contiguous segments (iovecs) for_each_segment() visits.
  std::size_t segment_count() const { return segments_.size(); }

  /// Drops everything queued.
  void clear();  // keeps the arena's capacity for the next batch

 private:
  static constexpr std::uint32_t no_owned = UINT32_MAX;
  struct segment {
    std::uint32_t owned;  // index in owned_, or no_owned for the arena
    std::size_t offset;
    std::size_t size;
  };
  void copy_in(std::span<const std::byte> bytes);
  // `size` bytes were added at `offset`: the last segment grows when it is the arena's tail, so a
  // burst stays one iovec.
  void extend(std::size_t offset, std::size_t size) {
    if (!segments_.empty() && segments_.back().owned == no_owned &&
        segments_.back().offset + segments_.back().size == offset)
      segments_.back().size += size;
    else
      segments_.push_back({no_owned, offset, size});
    bytes_ += size;
  }
  // `size` more bytes at the arena's tail, uninitialised; returns where they start.
  std::byte* grow_arena(std::size_t size) {
    if (arena_capacity_ - arena_size_ < size) reallocate(size);
    std::byte* at = arena_.get() + arena_size_;
    arena_size_ += size;
    return at;
  }
  void reallocate(std::size_t more);

  // Not a std::vector: resize() would zero every byte before it is overwritten, a memset per
  // frame on every call's path.
  std::unique_ptr<std::byte[]> arena_;
  std::size_t arena_size_ = 0;
  std::size_t arena_capacity_ = 0;
  std::vector<std::string> owned_;
  std::vector<segment> segments_;
  std::size_t bytes_ = 0;
  std::size_t frames_ = 0;
};

}  // namespace wirebench
