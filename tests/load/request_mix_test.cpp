// Which request of a mix each call sends: over every cycle each request exactly its weight's
// share, spread out (smooth weighted round robin), callers starting apart; weights that cannot
// make a cycle refused.
#include "wirebench/load/request_mix.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <vector>

namespace wirebench {
namespace {

std::vector<std::uint64_t> counts_over(const request_mix& mix, std::size_t start, std::size_t calls) {
  std::vector<std::uint64_t> counts(mix.requests(), 0);
  request_mix::walk walk(mix, start);
  for (std::size_t i = 0; i < calls; ++i) ++counts.at(walk.next());
  return counts;
}

TEST(request_mix, each_cycle_holds_every_request_exactly_its_weight) {
  const request_mix mix({5, 3, 2});
  ASSERT_EQ(mix.cycle_length(), 10u);
  EXPECT_EQ(counts_over(mix, 0, 10), (std::vector<std::uint64_t>{5, 3, 2}));
  // From any start, whole cycles keep the shares exactly.
  for (std::size_t start = 0; start < 10; ++start)
    EXPECT_EQ(counts_over(mix, start, 20'000), (std::vector<std::uint64_t>{10'000, 6'000, 4'000}));
  // Part of a cycle is off by less than one call per request.
  const auto part = counts_over(mix, 3, 20'007);
  EXPECT_NEAR(static_cast<double>(part[0]), 20'007 * 0.5, 1);
  EXPECT_NEAR(static_cast<double>(part[1]), 20'007 * 0.3, 1);
  EXPECT_NEAR(static_cast<double>(part[2]), 20'007 * 0.2, 1);
}

TEST(request_mix, the_picks_are_spread_not_in_runs) {
  // nginx's smooth weighted round robin: 5:1:1 is a a b a c a a, not a a a a a b c.
  const request_mix mix({5, 1, 1});
  std::vector<std::uint32_t> cycle;
  for (std::size_t i = 0; i < mix.cycle_length(); ++i) cycle.push_back(mix.at(i));
  EXPECT_EQ(cycle, (std::vector<std::uint32_t>{0, 0, 1, 0, 2, 0, 0}));
  // 1:1:1 is h2load's round robin over its URIs.
  const request_mix even({1, 1, 1});
  EXPECT_EQ(counts_over(even, 0, 3), (std::vector<std::uint64_t>{1, 1, 1}));
  EXPECT_EQ(even.at(0), 0u);
  EXPECT_EQ(even.at(1), 1u);
  EXPECT_EQ(even.at(2), 2u);
}

TEST(request_mix, weights_are_divided_by_their_common_divisor) {
  const request_mix mix({300, 100});
  EXPECT_EQ(mix.cycle_length(), 4u);
  EXPECT_EQ(counts_over(mix, 0, 4), (std::vector<std::uint64_t>{3, 1}));
}

TEST(request_mix, callers_start_spread_over_the_cycle) {
  const request_mix mix({1, 1, 1, 1});
  std::map<std::uint32_t, int> first_picks;
  for (std::size_t c = 0; c < 4; ++c) ++first_picks[request_mix::walk(mix, mix.start_of(c, 4)).next()];
  EXPECT_EQ(first_picks.size(), 4u) << "four callers started on the same request";
  EXPECT_EQ(mix.start_of(5, 4), mix.start_of(1, 4));
}

TEST(request_mix, no_mix_sends_request_0_on_every_call) {
  for (const request_mix& mix : {request_mix{}, request_mix({7})}) {
    EXPECT_FALSE(mix.is_mix());
    EXPECT_EQ(mix.requests(), 1u);
    EXPECT_EQ(counts_over(mix, 0, 5), (std::vector<std::uint64_t>{5}));
  }
}

TEST(request_mix, a_weight_of_0_or_a_cycle_too_long_is_refused) {
  EXPECT_THROW(request_mix({1, 0}), std::invalid_argument);
  EXPECT_THROW(request_mix({1, 1'000'000}), std::invalid_argument);
  EXPECT_NO_THROW(request_mix({37, 63}));
  EXPECT_NO_THROW(request_mix({2, 199'998}));  // 1:99999 once divided: a cycle of 100000
}

}  // namespace
}  // namespace wirebench
