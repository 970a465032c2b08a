#include "wirebench/transport/frame_buffer.hpp"

#include <algorithm>
#include <cstring>

namespace wirebench {

frame_buffer::frame_buffer(std::size_t max_bytes, std::size_t initial_bytes)
    : storage_(std::max<std::size_t>(1, std::min(initial_bytes, max_bytes))),
      max_bytes_(std::max<std::size_t>(1, max_bytes)) {}

void frame_buffer::consume(std::size_t n) {
  begin_ += std::min(n, size());
  if (begin_ == end_) begin_ = end_ = 0;
}

std::span<std::byte> frame_buffer::prepare(std::size_t min_room) {
  if (storage_.size() - end_ < min_room && begin_ > 0) {  // room at the front: move the bytes there
    std::memmove(storage_.data(), storage_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == storage_.size() && storage_.size() < max_bytes_)
    storage_.resize(std::min(storage_.size() * 2, max_bytes_));
  return {storage_.data() + end_, storage_.size() - end_};
}

bool frame_buffer::reserve(std::size_t n) {
  if (n > max_bytes_ - size()) return false;
  if (storage_.size() - end_ >= n) return true;
  if (begin_ > 0) {
    std::memmove(storage_.data(), storage_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (storage_.size() - end_ < n) {
    std::size_t grown = storage_.size();
    while (grown - end_ < n) grown = std::min(grown * 2, max_bytes_);
    storage_.resize(grown);
  }
  return true;
}

}  // namespace wirebench
