#pragma once
// Output waiting for one writev, sans-IO. Small frames are copied into one contiguous arena, so a
// burst of replies becomes a single iovec (as Redis coalesces its reply buffer); a large payload
// handed over as std::string is kept as its own segment and never copied.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "wirebench/codec/encoded_frame.hpp"

namespace wirebench {

class gather_queue {
 public:
  // Payloads longer than this are kept as their own segment when handed over by value.
  static constexpr std::size_t copy_threshold = 1024;

  // Copies the frame (prefix, payload, suffix): for payloads the caller does not keep alive.
  void append(const encoded_frame& frame);
  // Takes ownership of `payload`; copies it only if it is small enough to coalesce.
  void append(std::span<const std::byte> prefix, std::string&& payload,
              std::span<const std::byte> suffix);
  void append_bytes(std::span<const std::byte> bytes);

  std::size_t bytes() const { return bytes_; }
  std::size_t frames() const { return frames_; }
  bool empty() const { return bytes_ == 0; }

  // Calls f(std::span<const std::byte>) for each contiguous segment, in order. The spans stay valid
  // until the next append or clear.
  template <typename F>
  void for_each_segment(F&& f) const {
    for (const segment& s : segments_) {
      const std::byte* base = s.owned == no_owned
                                  ? arena_.data()
                                  : reinterpret_cast<const std::byte*>(owned_[s.owned].data());
      f(std::span<const std::byte>(base + s.offset, s.size));
    }
  }
  std::size_t segment_count() const { return segments_.size(); }

  void clear();  // keeps the arena's capacity for the next batch

 private:
  static constexpr std::uint32_t no_owned = UINT32_MAX;
  struct segment {
    std::uint32_t owned;  // index in owned_, or no_owned for the arena
    std::size_t offset;
    std::size_t size;
  };
  void copy_in(std::span<const std::byte> bytes);
  void extend(std::size_t offset, std::size_t size);  // `size` bytes were added at `offset`

  std::vector<std::byte> arena_;
  std::vector<std::string> owned_;
  std::vector<segment> segments_;
  std::size_t bytes_ = 0;
  std::size_t frames_ = 0;
};

}  // namespace wirebench
