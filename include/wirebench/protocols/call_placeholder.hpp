#pragma once
// The per-call placeholders of a user call (user_call.hpp), each 12 bytes written and 12 filled,
// so that a request keeps its length and is built once:
//   __rand_int__   12 digits, random in [0, keyspace) (redis-benchmark's -r)
//   __sequence__   12 digits: the call's number, counting every call of the process that sends
//                  one from 0 (ghz's {{.RequestNumber}}); one number per call, however many times
//                  it appears (a call sent again because the server had not processed it takes a
//                  new one: the server then sees a gap)
//   __rand_str__   12 random characters from [0-9a-z]
//   __rand_str_N__ N of them (N from 4 to 1 MiB): written as N bytes that name their length
//                  before any request is built (with_payloads()), then filled like the others
// and one expanded once, before any request is built (with_payloads()):
//   __payload_N__  N bytes of 'x' (N up to 16 MiB): a body, a value or a field of N bytes
// (call_picks.hpp has the placeholders picked from a list, expanded before these.)
// A codec builds its request once per connection, finds the placeholders once, and per call copies
// the bytes into a buffer whose capacity it keeps and fills them in: no allocation per call.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wirebench/core/gather_queue.hpp"
#include "wirebench/protocols/user_call.hpp"

namespace wirebench {

inline constexpr std::string_view sequence_placeholder = "__sequence__";
inline constexpr std::string_view random_string_placeholder = "__rand_str__";

class placeholder_filler {
 public:
  // The placeholders in `bytes`; random numbers uniform in [0, keyspace) (keyspace >= 1, at most
  // 10^12: twelve digits), from a generator seeded with `seed`.
  placeholder_filler(std::string_view bytes, std::uint64_t keyspace, std::uint64_t seed);

  bool empty() const { return at_.empty(); }
  // Writes every placeholder of `bytes` for one call; `bytes` must be laid out as the bytes given
  // at construction (a copy of them, or the same bytes filled before). Each __rand_int__ and
  // __rand_str__ gets a value of its own, as redis-benchmark -r does.
  void fill(std::span<char> bytes);
  // Appends `bytes` (as at construction) to `out` with fresh values in place: one copy, into the
  // queue's arena.
  void append_filled(std::string_view bytes, gather_queue& out);
  // The next random number fill() would write for a __rand_int__ (tests).
  std::uint64_t next();

 private:
  enum class kind : std::uint8_t { random_int, sequence, random_string };
  struct place {
    std::size_t at;
    kind what;
    std::size_t length = 12;  // a random string's
  };
  std::uint64_t next_bits();  // next_random_bits() of state_

  std::vector<place> at_;  // in order
  bool has_sequence_ = false;
  std::uint64_t keyspace_;
  std::uint64_t state_;
};

// The placeholders' generator (splitmix64), for whoever picks per call alike (picking_client.hpp):
// the next 64 random bits from `state`, and a number uniform in [0, n) (n >= 1).
std::uint64_t next_random_bits(std::uint64_t& state);
std::uint64_t random_below(std::uint64_t n, std::uint64_t& state);

// A different seed for every call of it in this process (each connection's codec takes one, so
// that connections do not send the same keys in step).
std::uint64_t next_placeholder_seed();

// `text` with each __payload_N__ replaced by N bytes of 'x'. Throws std::invalid_argument (one
// line, naming it) for an N that is not a whole number up to 16 MiB.
std::string expand_payloads(std::string_view text);
// `text` with each __rand_str_N__ replaced by the N bytes the filler fills (N from 4 to 1 MiB;
// std::invalid_argument otherwise).
std::string expand_random_strings(std::string_view text);
// The call with every field expanded so, both kinds (HTTP target, header values and body; RESP arguments;
// gRPC JSON; MessagePack-RPC params): what a client builds its request from, the call as written
// staying what results show.
user_call with_payloads(user_call call);
// How many bytes with_payloads(call)'s fields will come to, counted without building them (a
// placeholder's N for the placeholder; one that is not well-formed as written): what a client is
// about to allocate for it, per connection, judged before it does.
std::size_t expanded_size(user_call call);

}  // namespace wirebench
