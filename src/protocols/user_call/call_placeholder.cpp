#include "wirebench/protocols/call_placeholder.hpp"

#include <atomic>
#include <cstring>

#include "wirebench/protocols/user_call.hpp"

namespace wirebench {
namespace {
__extension__ typedef unsigned __int128 uint128;  // GCC and Clang have it; ISO C++ does not
}  // namespace

random_int_filler::random_int_filler(std::string_view bytes, std::uint64_t keyspace,
                                     std::uint64_t seed)
    : keyspace_(keyspace == 0 ? 1 : keyspace), state_(seed) {
  for (auto at = bytes.find(random_int_placeholder); at != std::string_view::npos;
       at = bytes.find(random_int_placeholder, at + random_int_placeholder.size()))
    at_.push_back(at);
}

std::uint64_t random_int_filler::next() {
  // splitmix64: one add and a few multiplies per number, and every seed gives a full sequence.
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  // Into [0, keyspace) by the high half of a 128-bit product: no division, no modulo bias to
  // speak of for a keyspace far below 2^64.
  return static_cast<std::uint64_t>((static_cast<uint128>(z) * keyspace_) >> 64);
}

void random_int_filler::fill(std::span<char> bytes) {
  for (const std::size_t at : at_) {
    std::uint64_t n = next();
    for (std::size_t i = random_int_placeholder.size(); i-- > 0; n /= 10)
      bytes[at + i] = static_cast<char>('0' + n % 10);
  }
}

void random_int_filler::append_filled(std::string_view bytes, gather_queue& out) {
  std::byte* at = out.append_in_place(bytes.size());
  std::memcpy(at, bytes.data(), bytes.size());
  fill({reinterpret_cast<char*>(at), bytes.size()});
}

std::uint64_t next_placeholder_seed() {
  static std::atomic<std::uint64_t> counter{0x2545f4914f6cdd1dULL};
  return counter.fetch_add(0x9e3779b97f4a7c15ULL, std::memory_order_relaxed);
}

}  // namespace wirebench
