#pragma once
// What a codec wrote into a gather_queue, as one string: for tests that compare a codec's output
// with exact bytes.
#include <span>
#include <string>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace wirebench::test {

// Every byte queued, in order; the queue keeps them.
inline std::string queued_text(const gather_queue& queue) {
  std::string text;
  queue.for_each_segment([&](std::span<const std::byte> segment) { text += as_text(segment); });
  return text;
}

// The same, and the queue is emptied (as a writer would after sending it).
inline std::string take_queued_text(gather_queue& queue) {
  std::string text = queued_text(queue);
  queue.clear();
  return text;
}

}  // namespace wirebench::test
