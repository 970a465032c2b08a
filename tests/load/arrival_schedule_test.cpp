// arrival_schedule: how many calls each schedule plans, when, and that a seed replays it.
#include "wirebench/load/arrival_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace wirebench {
namespace {

using namespace std::chrono_literals;

std::vector<std::chrono::nanoseconds> all_of(arrival_schedule s) {
  std::vector<std::chrono::nanoseconds> at;
  while (auto next = s.next()) at.push_back(*next);
  return at;
}

TEST(ArrivalSchedule, UniformIsEvenlySpacedAndExact) {
  const auto at = all_of(arrival_schedule(arrival_kind::uniform, 1000, 2s));
  ASSERT_EQ(at.size(), 2000u);
  for (std::size_t i = 0; i < at.size(); ++i) EXPECT_EQ(at[i], std::chrono::milliseconds(i));
}

TEST(ArrivalSchedule, UniformAtAnAwkwardRateDoesNotDrift) {
  // 3 calls/s over 10 s: 30 calls, the last at 29/3 s, rounded down to the nanosecond.
  const auto at = all_of(arrival_schedule(arrival_kind::uniform, 3, 10s));
  ASSERT_EQ(at.size(), 30u);
  EXPECT_EQ(at.back().count(), 9'666'666'666);
}

TEST(ArrivalSchedule, PoissonHasTheRateOnAverageAndReplaysBySeed) {
  const auto at = all_of(arrival_schedule(arrival_kind::poisson, 10000, 10s, 42));
  // 100 000 expected; the count of a Poisson process has a standard deviation of sqrt(100 000).
  EXPECT_NEAR(static_cast<double>(at.size()), 100000.0, 5 * std::sqrt(100000.0));
  EXPECT_EQ(at.front(), 0ns);
  EXPECT_TRUE(std::is_sorted(at.begin(), at.end()));
  EXPECT_LT(at.back(), 10s);
  // Exponential gaps: about 1/e of them are longer than the mean (100 µs).
  std::size_t longer = 0;
  for (std::size_t i = 1; i < at.size(); ++i) longer += (at[i] - at[i - 1]) > 100us;
  EXPECT_NEAR(static_cast<double>(longer) / static_cast<double>(at.size()), std::exp(-1.0), 0.01);

  EXPECT_EQ(at, all_of(arrival_schedule(arrival_kind::poisson, 10000, 10s, 42)));
  EXPECT_NE(at, all_of(arrival_schedule(arrival_kind::poisson, 10000, 10s, 43)));
}

TEST(ArrivalSchedule, BurstyPutsEveryCallAtTheStartOfAWholeSecond) {
  const auto at = all_of(arrival_schedule(arrival_kind::bursty, 100, 60s, 7));
  ASSERT_EQ(at.size(), 6000u);
  EXPECT_TRUE(std::is_sorted(at.begin(), at.end()));
  std::vector<int> per_second(60, 0);
  for (auto t : at) {
    ASSERT_EQ(t.count() % 1'000'000'000, 0) << "not on a whole second: " << t.count();
    ASSERT_LT(t, 60s);
    ++per_second[static_cast<std::size_t>(t.count() / 1'000'000'000)];
  }
  // Uneven: the point of this schedule (100 a second on average, binomial spread ~10).
  EXPECT_NE(*std::min_element(per_second.begin(), per_second.end()),
            *std::max_element(per_second.begin(), per_second.end()));
}

TEST(ArrivalSchedule, BurstyShorterThanASecondStartsEverythingAtOnce) {
  const auto at = all_of(arrival_schedule(arrival_kind::bursty, 100, 500ms));
  ASSERT_EQ(at.size(), 50u);
  for (auto t : at) EXPECT_EQ(t, 0ns);
}

TEST(ArrivalSchedule, RejectsARateOrDurationThatIsNotPositive) {
  EXPECT_THROW(arrival_schedule(arrival_kind::uniform, 0, 1s), std::invalid_argument);
  EXPECT_THROW(arrival_schedule(arrival_kind::uniform, -5, 1s), std::invalid_argument);
  EXPECT_THROW(arrival_schedule(arrival_kind::poisson, NAN, 1s), std::invalid_argument);
  EXPECT_THROW(arrival_schedule(arrival_kind::bursty, 10, 0s), std::invalid_argument);
}

// Split over n generator threads, share k takes calls k, k + n, ...: together the shares are the
// one schedule, call for call, whatever n, and last_index() says where each call stands in it.
TEST(ArrivalSchedule, SharesTogetherAreTheWholeScheduleWhateverTheirNumber) {
  for (auto kind : {arrival_kind::uniform, arrival_kind::poisson, arrival_kind::bursty}) {
    const auto whole = all_of(arrival_schedule(kind, 997, 2s, 5));
    for (std::size_t shares : {1u, 2u, 3u, 7u}) {
      std::vector<std::chrono::nanoseconds> merged(whole.size());
      std::size_t taken = 0;
      for (std::size_t k = 0; k < shares; ++k) {
        arrival_schedule share(kind, 997, 2s, 5, k, shares);
        while (auto at = share.next()) {
          ASSERT_EQ(share.last_index() % shares, k);
          ASSERT_LT(share.last_index(), merged.size());
          merged[share.last_index()] = *at;
          ++taken;
        }
      }
      EXPECT_EQ(taken, whole.size()) << arrival_kind_name(kind) << " in " << shares;
      EXPECT_EQ(merged, whole) << arrival_kind_name(kind) << " in " << shares;
    }
  }
  EXPECT_THROW(arrival_schedule(arrival_kind::uniform, 10, 1s, 1, 2, 2), std::invalid_argument);
  EXPECT_THROW(arrival_schedule(arrival_kind::uniform, 10, 1s, 1, 0, 0), std::invalid_argument);
}

// A call count (-n): exactly that many calls, however long they take at the rate, split over
// shares as any schedule; end() is where the window they fill ends.
TEST(ArrivalSchedule, ACountHasExactlyThatManyCallsInEveryKindAndShare) {
  for (auto kind : {arrival_kind::uniform, arrival_kind::poisson, arrival_kind::bursty}) {
    SCOPED_TRACE(std::string(arrival_kind_name(kind)));
    // The duration is not read: 1 ns would otherwise leave room for one call.
    const auto whole = all_of(arrival_schedule(kind, 1000, 1ns, 5, 0, 1, 2500));
    ASSERT_EQ(whole.size(), 2500u);
    EXPECT_TRUE(std::is_sorted(whole.begin(), whole.end()));
    for (std::size_t shares : {2u, 3u}) {
      std::size_t taken = 0;
      for (std::size_t k = 0; k < shares; ++k) {
        arrival_schedule share(kind, 1000, 1ns, 5, k, shares, 2500);
        while (share.next()) ++taken;
      }
      EXPECT_EQ(taken, 2500u) << shares << " shares";
    }
  }
  // Uniform: the 2500th call at 2.499 s; the window ends one gap later, at 2.5 s (N / rate).
  arrival_schedule uniform(arrival_kind::uniform, 1000, 1s, 1, 0, 1, 2500);
  const auto at = all_of(uniform);
  EXPECT_EQ(at.back(), 2499ms);
  while (uniform.next()) {
  }
  EXPECT_EQ(uniform.end(), 2500ms);
  // Bursty: 2500 calls at 1000/s over 3 whole seconds.
  arrival_schedule bursty(arrival_kind::bursty, 1000, 1s, 1, 0, 1, 2500);
  const auto b = all_of(bursty);
  EXPECT_LE(b.back(), 2s);
  while (bursty.next()) {
  }
  EXPECT_EQ(bursty.end(), 3s);
  // Without a count, the end is the duration.
  arrival_schedule timed(arrival_kind::poisson, 1000, 2s);
  while (timed.next()) {
  }
  EXPECT_EQ(timed.end(), 2s);
}

TEST(ArrivalSchedule, NamesParseBack) {
  for (auto k : {arrival_kind::uniform, arrival_kind::poisson, arrival_kind::bursty})
    EXPECT_EQ(parse_arrival_kind(arrival_kind_name(k)), k);
  EXPECT_FALSE(parse_arrival_kind("closed"));
  EXPECT_FALSE(parse_arrival_kind(""));
}

}  // namespace
}  // namespace wirebench
