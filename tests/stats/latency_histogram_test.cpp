// latency_histogram: exactness below 2048 ns, 1/1024 relative error above, percentiles, merge,
// saturation, reset.
#include "wirebench/stats/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace wirebench {
namespace {

constexpr std::uint64_t sixty_s = latency_histogram::highest_trackable_ns;

// The exact percentile of sorted values under the same definition: the smallest recorded value
// such that at least `percent`% of the values are at or below it.
std::uint64_t exact_percentile(const std::vector<std::uint64_t>& sorted, double percent) {
  const auto n = static_cast<std::uint64_t>(sorted.size());
  // Integer arithmetic on percent * 1000 (tests use at most 3 decimals): no rounding trouble.
  const auto milli = static_cast<std::uint64_t>(std::llround(percent * 1000.0));
  std::uint64_t wanted = (milli * n + 100'000 - 1) / 100'000;
  wanted = std::max<std::uint64_t>(wanted, 1);
  return sorted[wanted - 1];
}

TEST(LatencyHistogram, EmptyReturnsZero) {
  const latency_histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
  EXPECT_EQ(h.saturated(), 0u);
  for (double p : {0.0, 50.0, 99.9, 100.0}) EXPECT_EQ(h.percentile(p), 0u) << p;
}

TEST(LatencyHistogram, ExactBelow2048) {
  for (std::uint64_t v = 0; v < 2048; ++v) {
    latency_histogram h;
    h.record(v);
    ASSERT_EQ(h.percentile(100), v);
    ASSERT_EQ(h.percentile(0), v);
    ASSERT_EQ(h.min(), v);
    ASSERT_EQ(h.max(), v);
  }
  // All of them at once: every percentile lands on the exact value.
  latency_histogram h;
  std::vector<std::uint64_t> values;
  for (std::uint64_t v = 0; v < 2048; ++v) {
    h.record(v);
    values.push_back(v);
  }
  for (int p = 0; p <= 1000; ++p) {
    const double percent = p / 10.0;
    ASSERT_EQ(h.percentile(percent), exact_percentile(values, percent)) << percent;
  }
}

TEST(LatencyHistogram, SingleValueIsReturnedExactly) {
  // percentile() never reports above max(), so one recorded value comes back as itself.
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<std::uint64_t> dist(1, sixty_s);
  latency_histogram h;
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t v = dist(rng);
    h.reset();
    h.record(v);
    ASSERT_EQ(h.percentile(100), v);
    ASSERT_EQ(h.percentile(50), v);
    ASSERT_EQ(h.percentile(0), v);
  }
}

TEST(LatencyHistogram, RelativeErrorAtMostOneIn1024) {
  // With a larger value recorded too, percentile(50) reports the top of the lower value's bucket:
  // at or above it and within 1/1024 of it.
  std::mt19937_64 rng(2);
  // Log-uniform from 1 ns to 60 s, so every magnitude is covered.
  std::uniform_real_distribution<double> exponent(0.0, std::log2(static_cast<double>(sixty_s)));
  latency_histogram h;
  for (int i = 0; i < 4000; ++i) {
    auto v = static_cast<std::uint64_t>(std::exp2(exponent(rng)));
    v = std::clamp<std::uint64_t>(v, 1, sixty_s - 1);
    h.reset();
    h.record(v);
    h.record(sixty_s);
    const std::uint64_t reported = h.percentile(50);
    ASSERT_GE(reported, v);
    ASSERT_LE(static_cast<long double>(reported),
              static_cast<long double>(v) * (1.0L + 1.0L / 1024.0L))
        << "v=" << v;
    if (v < 2048) {
      ASSERT_EQ(reported, v);
    }
  }
}

TEST(LatencyHistogram, BucketBoundaries) {
  // Around each power of two the bucket width doubles; values stay within 1/1024.
  for (int bit = 11; bit < 36; ++bit) {
    for (std::int64_t delta : {-2, -1, 0, 1, 2}) {
      const std::uint64_t v = (std::uint64_t{1} << bit) + static_cast<std::uint64_t>(delta);
      latency_histogram h;
      h.record(v);
      h.record(sixty_s);
      const std::uint64_t reported = h.percentile(50);
      ASSERT_GE(reported, v) << v;
      ASSERT_LE(reported - v, v / 1024) << v;
    }
  }
}

TEST(LatencyHistogram, PercentilesOfOneToTenThousand) {
  latency_histogram h;
  for (std::uint64_t v = 1; v <= 10000; ++v) h.record(v);
  EXPECT_EQ(h.count(), 10000u);
  EXPECT_EQ(h.min(), 1u);
  EXPECT_EQ(h.max(), 10000u);
  EXPECT_DOUBLE_EQ(h.mean(), 5000.5);
  EXPECT_NEAR(static_cast<double>(h.percentile(50)), 5000.0, 5.0);
  EXPECT_GE(h.percentile(50), 5000u);
  EXPECT_NEAR(static_cast<double>(h.percentile(99)), 9900.0, 9.9);
  EXPECT_GE(h.percentile(99), 9900u);
  EXPECT_NEAR(static_cast<double>(h.percentile(99.9)), 9990.0, 9.99);
  EXPECT_EQ(h.percentile(100), 10000u);
  EXPECT_EQ(h.percentile(0), 1u);
  // Out-of-range percents are clamped.
  EXPECT_EQ(h.percentile(150), 10000u);
  EXPECT_EQ(h.percentile(-5), 1u);
}

TEST(LatencyHistogram, IntegerPercentsOfOneToHundredAreExact) {
  // 1..100 are below 2048 so exact: percentile(p) must be p for every whole p. (7/100*100 is
  // 7.000000000000001 in floating point: a naive ceil() answers 8.)
  latency_histogram h;
  for (std::uint64_t v = 1; v <= 100; ++v) h.record(v);
  for (int p = 1; p <= 100; ++p) EXPECT_EQ(h.percentile(p), static_cast<std::uint64_t>(p)) << p;
}

TEST(LatencyHistogram, PercentilesMatchSortedValues) {
  std::mt19937_64 rng(3);
  for (int n : {1, 2, 3, 10, 1000, 1234}) {
    latency_histogram h;
    std::vector<std::uint64_t> values;
    for (int i = 0; i < n; ++i) {
      const std::uint64_t v = rng() % 2048;  // exact range: answers must match exactly
      values.push_back(v);
      h.record(v);
    }
    std::sort(values.begin(), values.end());
    for (int p = 0; p <= 1000; ++p) {
      const double percent = p / 10.0;
      ASSERT_EQ(h.percentile(percent), exact_percentile(values, percent))
          << "n=" << n << " percent=" << percent;
    }
  }
}

TEST(LatencyHistogram, MergeEqualsRecordingIntoOne) {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> exponent(0.0, 37.0);  // up to ~137 s: some saturate
  latency_histogram a, b, all;
  for (int i = 0; i < 50000; ++i) {
    const auto v = static_cast<std::uint64_t>(std::exp2(exponent(rng)));
    (i % 3 == 0 ? a : b).record(v);
    all.record(v);
  }
  latency_histogram merged;
  merged.merge(a);
  merged.merge(b);
  EXPECT_EQ(merged.count(), all.count());
  EXPECT_EQ(merged.min(), all.min());
  EXPECT_EQ(merged.max(), all.max());
  EXPECT_EQ(merged.saturated(), all.saturated());
  EXPECT_GT(all.saturated(), 0u);
  EXPECT_NEAR(merged.mean(), all.mean(), all.mean() * 1e-12);
  for (int p = 0; p <= 1000; ++p)
    ASSERT_EQ(merged.percentile(p / 10.0), all.percentile(p / 10.0)) << p / 10.0;
  for (double p : {99.99, 99.999, 99.9999})
    EXPECT_EQ(merged.percentile(p), all.percentile(p)) << p;

  // Merging into a non-empty histogram, and merging an empty one, too.
  a.merge(b);
  a.merge(latency_histogram{});
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_EQ(a.percentile(99.9), all.percentile(99.9));

  latency_histogram empty;
  empty.merge(latency_histogram{});
  EXPECT_EQ(empty.count(), 0u);
  EXPECT_EQ(empty.min(), 0u);
  EXPECT_EQ(empty.percentile(50), 0u);
}

TEST(LatencyHistogram, ValuesAboveSixtySecondsClampAndSaturate) {
  latency_histogram h;
  h.record(sixty_s);  // the limit itself is trackable
  EXPECT_EQ(h.saturated(), 0u);
  h.record(sixty_s + 1);
  h.record(std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(h.saturated(), 2u);
  EXPECT_EQ(h.count(), 3u);
  EXPECT_EQ(h.max(), sixty_s);
  EXPECT_EQ(h.min(), sixty_s);
  EXPECT_EQ(h.percentile(100), sixty_s);
  EXPECT_EQ(h.percentile(1), sixty_s);
  EXPECT_DOUBLE_EQ(h.mean(), static_cast<double>(sixty_s));
}

TEST(LatencyHistogram, Reset) {
  latency_histogram h;
  for (std::uint64_t v : {5u, 500u, 5'000'000u}) h.record(v);
  h.record(sixty_s * 2);
  h.reset();
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.saturated(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
  EXPECT_EQ(h.percentile(50), 0u);
  h.record(42);
  EXPECT_EQ(h.min(), 42u);
  EXPECT_EQ(h.max(), 42u);
  EXPECT_EQ(h.percentile(0), 42u);
  EXPECT_EQ(h.percentile(100), 42u);
  EXPECT_EQ(h.count(), 1u);
}

TEST(LatencyHistogram, NanPercentIsSafe) {
  latency_histogram h;
  for (std::uint64_t v = 1; v <= 10; ++v) h.record(v);
  const std::uint64_t p = h.percentile(std::numeric_limits<double>::quiet_NaN());
  EXPECT_GE(p, 1u);
  EXPECT_LE(p, 10u);
}

// What merging results from several generators rests on: the histograms of two halves of a
// sample set, each carried as its buckets and restored, add up to the histogram of the whole.
TEST(LatencyHistogram, MergedHalvesRestoredFromBucketsEqualTheWhole) {
  std::mt19937_64 random(7);
  std::lognormal_distribution<double> latency(11.0, 1.5);  // around 60 us, a long tail
  latency_histogram whole, first, second;
  for (int i = 0; i < 100000; ++i) {
    auto v = static_cast<std::uint64_t>(latency(random));
    if (i % 1000 == 0) v = sixty_s + 1;  // some saturated values too
    whole.record(v);
    (i % 3 == 0 ? first : second).record(v);
  }
  auto carried = [](const latency_histogram& h) {
    auto r = latency_histogram::restore(h.nonempty_buckets(), h.min(), h.max(), h.sum_ns(),
                                        h.saturated());
    EXPECT_TRUE(r.has_value());
    return r.value_or(latency_histogram{});
  };
  latency_histogram merged = carried(first);
  merged.merge(carried(second));
  EXPECT_EQ(merged.nonempty_buckets(), whole.nonempty_buckets());
  EXPECT_EQ(merged.count(), whole.count());
  EXPECT_EQ(merged.saturated(), whole.saturated());
  EXPECT_EQ(merged.min(), whole.min());
  EXPECT_EQ(merged.max(), whole.max());
  EXPECT_EQ(merged.sum_ns(), whole.sum_ns());
  for (double p : {0.0, 50.0, 90.0, 99.0, 99.9, 100.0})
    EXPECT_EQ(merged.percentile(p), whole.percentile(p)) << p;
}

TEST(LatencyHistogram, BucketsNameTheirLowestValue) {
  latency_histogram h;
  h.record(7);          // bucket width 1
  h.record(1'000'003);  // width 512 around 1 ms: [999936, 1000448)
  h.record(1'000'100);
  const auto buckets = h.nonempty_buckets();
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(buckets[0], (latency_histogram::bucket{7, 1}));
  EXPECT_EQ(buckets[1], (latency_histogram::bucket{999'936, 2}));
}

TEST(LatencyHistogram, RestoreRefusesPartsThatAreNoHistogram) {
  using b = latency_histogram::bucket;
  EXPECT_TRUE(latency_histogram::restore({}, 0, 0, 0, 0).has_value());
  EXPECT_TRUE(latency_histogram::restore({{7, 2}}, 7, 7, 14, 0).has_value());
  EXPECT_FALSE(latency_histogram::restore({}, 5, 5, 5, 0));                    // values, no calls
  EXPECT_FALSE(latency_histogram::restore({b{999'937, 1}}, 999'937, 999'937, 1, 0));  // not lowest
  EXPECT_FALSE(latency_histogram::restore({b{9, 1}, b{7, 1}}, 7, 9, 16, 0));  // out of order
  EXPECT_FALSE(latency_histogram::restore({b{7, 0}}, 7, 7, 0, 0));            // empty bucket
  EXPECT_FALSE(latency_histogram::restore({b{7, 1}, b{9, 1}}, 9, 7, 16, 0));  // min above max
  EXPECT_FALSE(latency_histogram::restore({b{7, 1}, b{9, 1}}, 8, 9, 17, 0));  // min not in first
  EXPECT_FALSE(latency_histogram::restore({b{7, 1}}, 7, 7, 7, 2));            // saturated > count
  EXPECT_FALSE(latency_histogram::restore({b{7, 2}}, 7, 7, 14, 1));           // saturated below 60 s
  EXPECT_FALSE(latency_histogram::restore({b{7, 2}}, 7, 7, 15, 0));           // sum above max * n
  EXPECT_FALSE(latency_histogram::restore({b{7, 1}, b{9, 1}}, 7, 9, 13, 0));  // sum below min * n
  EXPECT_FALSE(latency_histogram::restore({b{sixty_s * 2, 1}}, 1, 1, 1, 0));  // past 60 s
}

}  // namespace
}  // namespace wirebench
