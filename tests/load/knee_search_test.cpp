// The rate search: against a step that meets the target exactly up to a known capacity, it ends
// with the capacity bracketed within its precision, whether the capacity is above the start rate,
// below it, beyond the maximum or below the minimum; and it always ends.
#include "wirebench/load/knee_search.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace wirebench {
namespace {

knee_search run_against(double capacity, knee_search_config config = {}) {
  knee_search search(config);
  while (auto rate = search.next_rate()) search.record(*rate, *rate <= capacity);
  return search;
}

TEST(knee_search, brackets_a_capacity_above_or_below_the_start_within_the_precision) {
  for (double capacity : {1000.0, 1234.0, 2000.0, 7777.0, 182'000.0, 3'500'000.0, 640.0, 3.5}) {
    SCOPED_TRACE(capacity);
    const knee_search s = run_against(capacity);
    EXPECT_LE(s.highest_met(), capacity);
    EXPECT_GT(s.lowest_missed(), capacity);
    EXPECT_LE(s.lowest_missed(), s.highest_met() * 1.05);
    EXPECT_LE(s.steps(), 30u);
  }
}

TEST(knee_search, ramps_by_doubling_then_bisects) {
  knee_search s({.start_rate = 1000});
  std::vector<double> rates;
  while (auto rate = s.next_rate()) {
    rates.push_back(*rate);
    s.record(*rate, *rate <= 5000);
  }
  ASSERT_GE(rates.size(), 5u);
  EXPECT_EQ(std::vector<double>(rates.begin(), rates.begin() + 5),
            (std::vector<double>{1000, 2000, 4000, 8000, 6000}));
}

TEST(knee_search, stops_at_the_maximum_met_or_below_the_minimum_missed) {
  const knee_search fast = run_against(1e12, {.start_rate = 1000, .max_rate = 50'000});
  EXPECT_EQ(fast.highest_met(), 50'000);
  EXPECT_TRUE(std::isinf(fast.lowest_missed()));

  const knee_search dead = run_against(0, {.start_rate = 1000, .min_rate = 10});
  EXPECT_EQ(dead.highest_met(), 0);
  EXPECT_LT(dead.lowest_missed(), 20);
}

TEST(knee_search, ends_after_max_steps_whatever_the_answers) {
  knee_search s({.start_rate = 1000, .precision = 1e-12, .max_steps = 7});
  std::size_t steps = 0;
  while (auto rate = s.next_rate()) {
    s.record(*rate, *rate <= 1500);
    ++steps;
  }
  EXPECT_EQ(steps, 7u);
  EXPECT_TRUE(s.out_of_steps());
  EXPECT_FALSE(run_against(1500).out_of_steps());  // converged well within 40 steps
}

TEST(knee_search, refuses_a_search_that_cannot_be) {
  EXPECT_THROW(knee_search({.start_rate = 0}), std::invalid_argument);
  EXPECT_THROW(knee_search({.start_rate = 100, .max_rate = 10}), std::invalid_argument);
  EXPECT_THROW(knee_search({.precision = 0}), std::invalid_argument);
  EXPECT_THROW(knee_search({.max_steps = 0}), std::invalid_argument);
}

}  // namespace
}  // namespace wirebench
