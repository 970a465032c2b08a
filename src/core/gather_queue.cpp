#include "wirebench/core/gather_queue.hpp"

#include <algorithm>
#include <cassert>
#include <cstring>

namespace wirebench {

void gather_queue::reallocate(std::size_t more) {
  const std::size_t capacity = std::max({std::size_t{256}, 2 * arena_capacity_, arena_size_ + more});
  auto bigger = std::make_unique_for_overwrite<std::byte[]>(capacity);
  if (arena_size_ != 0) std::memcpy(bigger.get(), arena_.get(), arena_size_);
  arena_ = std::move(bigger);
  arena_capacity_ = capacity;
}

void gather_queue::swap(gather_queue& other) noexcept {
  std::swap(arena_, other.arena_);
  std::swap(arena_size_, other.arena_size_);
  std::swap(arena_capacity_, other.arena_capacity_);
  owned_.swap(other.owned_);
  segments_.swap(other.segments_);
  std::swap(bytes_, other.bytes_);
  std::swap(frames_, other.frames_);
}

void gather_queue::copy_in(std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  const std::size_t offset = arena_size_;
  std::memcpy(grow_arena(bytes.size()), bytes.data(), bytes.size());
  extend(offset, bytes.size());
}

namespace {

// A frame's prefix and suffix are at most 16 bytes. Given that bound, GCC expands memcpy into
// `rep movsq`, whose start-up cost on current x86 dwarfed the rest of this function (a third of
// the client's user time at depth 64); two overlapping fixed-size moves cost a few cycles.
void copy_at_most_16(std::byte* to, const std::byte* from, std::size_t n) {
  assert(n <= 16);  // encoded_frame's arrays: 16 prefix bytes, 2 suffix bytes
  if (n >= 8) {
    std::uint64_t head, tail;
    std::memcpy(&head, from, 8);
    std::memcpy(&tail, from + n - 8, 8);
    std::memcpy(to, &head, 8);
    std::memcpy(to + n - 8, &tail, 8);
  } else if (n >= 4) {
    std::uint32_t head, tail;
    std::memcpy(&head, from, 4);
    std::memcpy(&tail, from + n - 4, 4);
    std::memcpy(to, &head, 4);
    std::memcpy(to + n - 4, &tail, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
  }
}

}  // namespace

// One resize and one segment update for the whole frame (a request-response stream appends a
// small frame per call: this is on every call's path).
void gather_queue::append(const encoded_frame& frame) {
  const std::size_t total = frame.size();
  if (total != 0) {
    const std::size_t offset = arena_size_;
    std::byte* at = grow_arena(total);
    copy_at_most_16(at, frame.prefix_bytes.data(), frame.prefix_size);
    at += frame.prefix_size;
    if (!frame.payload.empty()) std::memcpy(at, frame.payload.data(), frame.payload.size());
    at += frame.payload.size();
    copy_at_most_16(at, frame.suffix_bytes.data(), frame.suffix_size);
    extend(offset, total);
  }
  ++frames_;
}

void gather_queue::append(std::span<const std::byte> prefix, std::string&& payload,
                          std::span<const std::byte> suffix) {
  copy_in(prefix);
  if (payload.size() <= copy_threshold) {
    copy_in({reinterpret_cast<const std::byte*>(payload.data()), payload.size()});
  } else {
    segments_.push_back({static_cast<std::uint32_t>(owned_.size()), 0, payload.size()});
    bytes_ += payload.size();
    owned_.push_back(std::move(payload));
  }
  copy_in(suffix);
  ++frames_;
}

void gather_queue::append_bytes(std::span<const std::byte> bytes) {
  copy_in(bytes);
  ++frames_;
}

void gather_queue::clear() {
  arena_size_ = 0;
  owned_.clear();
  segments_.clear();
  bytes_ = 0;
  frames_ = 0;
}

}  // namespace wirebench
