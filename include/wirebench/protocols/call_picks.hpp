#pragma once
// Placeholders whose value each call picks from a list (ghz's --data-file, k6's SharedArray,
// JMeter's CSV data set), in any field a per-call placeholder goes (call_placeholder.hpp) and in
// the expected reply or body:
//   __pick(a|b|c)__        one of the values between the bars
//   __pick(@FILE)__        one of FILE's lines (blank lines skipped; a final \r dropped)
//   __csv(FILE:COLUMN)__   one of FILE's rows' values in COLUMN: a name in its first row (the
//                          header), or a number from 1 (RFC 4180 quoting, read by libcsv)
// Each call picks uniformly at random. Every pick of one file in a request takes the same line
// or row (a user's name and password from one row, the reply expected for it); other picks are
// independent.
//
// A value of any length changes a request's length, and with it every length prefix, so a
// request with picks is expanded once, at start-up, into one request per combination of values
// (a variant), each encoded once per connection like any request of a mix; each call then picks
// one of its request's variants (picking_client.hpp, in the registry) and costs what a mix's
// call costs. Paths are read as given (relative to the working directory).
#include <cstddef>
#include <vector>

#include "wirebench/protocols/user_call.hpp"

namespace wirebench {

// The most variants a client's requests may expand into, together: every connection encodes
// each once (a CSV of 10 000 users is 10 000 templates per connection).
inline constexpr std::size_t max_pick_variants = 10'000;

struct picked_calls {
  std::vector<user_call> variants;  // request by request, in order; a request without picks is one
  std::vector<std::size_t> first;   // request i's variants are [first[i], first[i + 1])
  std::size_t requests() const { return first.size() - 1; }
  bool has_picks() const { return variants.size() != requests(); }
};

// The calls with every pick expanded (values JSON-escaped in gRPC messages and MessagePack-RPC
// params, where the placeholder sits in a JSON string). Throws std::invalid_argument with one line
// naming the request, the placeholder and what is wrong: a file that cannot be read, a column that
// is not there, an empty list, a value an HTTP target or header cannot carry, too many variants.
picked_calls expand_picks(const std::vector<user_call>& calls);

}  // namespace wirebench
