#include "wirebench/core/gather_queue.hpp"

#include <cassert>
#include <cstring>

namespace wirebench {

void gather_queue::copy_in(std::span<const std::byte> bytes) {
  if (bytes.empty()) return;
  const std::size_t offset = arena_.size();
  arena_.insert(arena_.end(), bytes.begin(), bytes.end());
  extend(offset, bytes.size());
}

// Extend the last segment when it is the arena's tail, so a burst stays one iovec.
void gather_queue::extend(std::size_t offset, std::size_t size) {
  if (!segments_.empty() && segments_.back().owned == no_owned &&
      segments_.back().offset + segments_.back().size == offset) {
    segments_.back().size += size;
  } else {
    segments_.push_back({no_owned, offset, size});
  }
  bytes_ += size;
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
    const std::size_t offset = arena_.size();
    arena_.resize(offset + total);
    std::byte* at = arena_.data() + offset;
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
  arena_.clear();
  owned_.clear();
  segments_.clear();
  bytes_ = 0;
  frames_ = 0;
}

}  // namespace wirebench
