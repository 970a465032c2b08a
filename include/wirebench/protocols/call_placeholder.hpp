#pragma once
// The per-call placeholder of a user call (user_call.hpp): where `__rand_int__` sits in a
// request's bytes, and fresh digits written over it for each call. A codec builds its request
// once per connection, finds the placeholders once, and per call copies the bytes into a buffer
// whose capacity it keeps and fills them in: no allocation per call.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "wirebench/core/gather_queue.hpp"

namespace wirebench {

class random_int_filler {
 public:
  // The placeholders in `bytes`; each call's numbers uniform in [0, keyspace) (keyspace >= 1,
  // at most 10^12: twelve digits), from a generator seeded with `seed`.
  random_int_filler(std::string_view bytes, std::uint64_t keyspace, std::uint64_t seed);

  bool empty() const { return at_.empty(); }
  // Writes 12 zero-padded digits over every placeholder of `bytes`, which must be laid out as the
  // bytes given at construction (a copy of them, or the same bytes filled before). Each
  // placeholder gets a number of its own, as redis-benchmark -r does.
  void fill(std::span<char> bytes);
  // Appends `bytes` (as at construction) to `out` with fresh digits in place: one copy, into
  // the queue's arena.
  void append_filled(std::string_view bytes, gather_queue& out);
  // The next number fill() would write (tests).
  std::uint64_t next();

 private:
  std::vector<std::size_t> at_;  // offsets of the placeholders
  std::uint64_t keyspace_;
  std::uint64_t state_;  // splitmix64
};

// A different seed for every call of it in this process (each connection's codec takes one, so
// that connections do not send the same keys in step).
std::uint64_t next_placeholder_seed();

}  // namespace wirebench
