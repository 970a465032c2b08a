#include "wirebench/core/gather_queue.hpp"

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

// One resize and one segment update for the whole frame (a request-response stream appends a
// small frame per call: this is on every call's path).
void gather_queue::append(const encoded_frame& frame) {
  const std::size_t total = frame.size();
  if (total != 0) {
    const std::size_t offset = arena_.size();
    arena_.resize(offset + total);
    std::byte* at = arena_.data() + offset;
    for (auto part : frame.buffers()) {
      if (part.empty()) continue;
      std::memcpy(at, part.data(), part.size());
      at += part.size();
    }
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
