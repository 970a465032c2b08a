#pragma once
// What a connection does with one reply, for the matchers' tests: takes call `id` from the matcher
// and, when it was pending, runs its completion with `reply`, as the matcher's caller would.
#include <cstdint>
#include <string_view>

#include "wirebench/calls/call_matcher.hpp"

namespace wirebench::test {

inline reply_match take_and_complete(call_matcher& matcher, std::uint32_t id, std::string_view reply) {
  call_completion done;
  const reply_match match = matcher.take(id, done);
  if (match == reply_match::completed) done({}, reply);
  return match;
}

}  // namespace wirebench::test
