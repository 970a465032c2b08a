// Ramped open loops: a rate profile's calls by any time and its inverse, the stages as written,
// and the schedules laid out over it (uniform: exactly the calls the ramp has due by each
// moment; poisson: the same on average), each split over shares as a constant rate's is.
#include "wirebench/load/rate_profile.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "wirebench/load/arrival_schedule.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

TEST(rate_profile, a_ramp_holds_the_calls_its_rate_integrates_to) {
  // k6's 0 -> 20k/s over 20 s: 200 000 calls, a quarter of them in the first half.
  const rate_profile ramp({{20'000, 20s}});
  EXPECT_DOUBLE_EQ(ramp.total_calls(), 200'000);
  EXPECT_DOUBLE_EQ(ramp.calls_by(10), 50'000);
  EXPECT_DOUBLE_EQ(ramp.rate_at(5), 5'000);
  EXPECT_DOUBLE_EQ(ramp.peak(), 20'000);
  EXPECT_EQ(ramp.duration(), 20s);
  // Up, held, down, and a jump (a stage of 0 s).
  const rate_profile shaped({{1000, 10s}, {1000, 30s}, {0, 5s}, {500, 0s}, {500, 2s}});
  EXPECT_DOUBLE_EQ(shaped.total_calls(), 5000 + 30'000 + 2500 + 1000);
  EXPECT_DOUBLE_EQ(shaped.rate_at(41), 800);
  EXPECT_DOUBLE_EQ(shaped.rate_at(46), 500);
  EXPECT_DOUBLE_EQ(shaped.rate_at(47.5), 0);  // past the end
}

TEST(rate_profile, time_of_inverts_calls_by_in_every_stage) {
  const rate_profile shaped({{1000, 10s}, {1000, 30s}, {0, 5s}, {0, 3s}, {500, 0s}, {500, 2s}});
  for (double n = 0; n < shaped.total_calls(); n += 137.5) {
    const auto t = shaped.time_of(n);
    ASSERT_TRUE(t) << n;
    EXPECT_NEAR(shaped.calls_by(*t), n, 1e-6 * std::max(1.0, n)) << n;
  }
  // The pause (0 for 3 s) holds no call: the first call after it is at its end.
  EXPECT_NEAR(*shaped.time_of(37'500), 48, 1e-9);
  EXPECT_FALSE(shaped.time_of(shaped.total_calls()));
  EXPECT_DOUBLE_EQ(*shaped.time_of(0), 0);
}

TEST(rate_profile, stages_are_read_and_written_as_rate_at_duration) {
  std::string problem;
  const auto p = rate_profile::parse("0@0s,20000@20s,20000@60s,0@500ms", problem);
  ASSERT_TRUE(p) << problem;
  EXPECT_EQ(p->stages().size(), 4u);
  EXPECT_EQ(p->stages()[2], (rate_stage{20'000, 60s}));
  EXPECT_EQ(p->text(), "0@0s,20000@20s,20000@60s,0@500ms");
  for (const char* bad : {"", "100", "x@1s", "100@", "100@fast", "-5@1s", "100@1s,", "100@0s"}) {
    problem.clear();
    EXPECT_FALSE(rate_profile::parse(bad, problem)) << bad;
    EXPECT_FALSE(problem.empty()) << bad;
  }
  EXPECT_THROW(rate_profile({{100, -1s}}), std::invalid_argument);
  EXPECT_THROW(rate_profile({{100, 24h * 200}, {100, 24h * 200}}), std::invalid_argument);  // > a year
  EXPECT_EQ(rate_profile({{1'234'567, 10s}, {2.5, 1s}}).text(), "1234567@10s,2.5@1s");  // as given
}

// Calls of `s` in each whole second.
std::vector<std::uint64_t> per_second(arrival_schedule s, std::size_t seconds) {
  std::vector<std::uint64_t> counts(seconds, 0);
  while (const auto at = s.next()) ++counts.at(static_cast<std::size_t>(*at / 1s));
  return counts;
}

TEST(rate_profile, a_uniform_schedule_follows_the_ramp_second_by_second) {
  const rate_profile ramp({{2000, 4s}, {2000, 2s}});  // 250, 750, 1250, 1750, 2000, 2000 per s
  const auto counts = per_second(arrival_schedule(arrival_kind::uniform, ramp), 6);
  const std::vector<std::uint64_t> expected = {250, 750, 1250, 1750, 2000, 2000};
  for (std::size_t k = 0; k < 6; ++k) EXPECT_NEAR(static_cast<double>(counts[k]), expected[k], 1) << k;
  // Split over three shares, the same schedule.
  std::vector<std::uint64_t> together(6, 0);
  for (std::size_t share = 0; share < 3; ++share) {
    const auto part = per_second(arrival_schedule(arrival_kind::uniform, ramp, 1, share, 3), 6);
    for (std::size_t k = 0; k < 6; ++k) together[k] += part[k];
  }
  EXPECT_EQ(together, counts);
  auto whole = arrival_schedule(arrival_kind::uniform, ramp);
  while (whole.next()) {
  }
  EXPECT_EQ(whole.end(), 6s);
}

TEST(rate_profile, a_poisson_schedule_follows_the_ramp_on_average) {
  const rate_profile ramp({{20'000, 4s}});
  const auto counts = per_second(arrival_schedule(arrival_kind::poisson, ramp, 7), 4);
  const double expected[] = {2500, 7500, 12'500, 17'500};
  for (std::size_t k = 0; k < 4; ++k)  // within 5 standard deviations of a Poisson count
    EXPECT_NEAR(static_cast<double>(counts[k]), expected[k], 5 * std::sqrt(expected[k])) << k;
}

TEST(rate_profile, bursty_arrivals_have_no_ramp) {
  EXPECT_THROW(arrival_schedule(arrival_kind::bursty, rate_profile({{100, 1s}})), std::invalid_argument);
}

// Stages without a call are a closed loop's ramp of workers (1@1s: one worker), refused only as
// an open loop's schedule.
TEST(rate_profile, stages_without_a_call_are_no_open_loop) {
  std::string problem;
  for (const char* few : {"0@10s", "1@1s"}) {
    const auto p = rate_profile::parse(few, problem);
    ASSERT_TRUE(p) << few << ": " << problem;
    EXPECT_LT(p->total_calls(), 1) << few;
    EXPECT_THROW(arrival_schedule(arrival_kind::uniform, *p), std::invalid_argument) << few;
  }
}

}  // namespace
}  // namespace wirebench
