// The timeline: calls land in the interval they completed in, counted by outcome; latencies per
// interval within 1/32 and the max exact; an open loop's arrivals by when they were due and sent;
// threads' timelines merge exactly, and line up by an offset.
#include "wirebench/stats/timeline.hpp"

#include <gtest/gtest.h>

#include <random>

#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
constexpr std::uint64_t ms = 1'000'000;

std::uint64_t count_of(const timeline_interval& row, outcome o) {
  return row.outcomes[static_cast<std::size_t>(o)];
}

TEST(timeline, each_call_lands_in_the_interval_it_completed_in) {
  timeline_recorder r(100ms);
  r.completed(5 * ms, {}, 1000);
  r.completed(99 * ms, errc::timeout, 0);
  r.completed(100 * ms, {}, 2000);
  r.completed(350 * ms, errc::connection_closed, 0);  // nothing completed in [200, 300) ms
  const timeline t = r.result();
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t.interval(), 100ms);
  EXPECT_EQ(t.intervals()[0].ok(), 1u);
  EXPECT_EQ(count_of(t.intervals()[0], outcome::timeout), 1u);
  EXPECT_EQ(t.intervals()[0].completed(), 2u);
  EXPECT_EQ(t.intervals()[1].ok(), 1u);
  EXPECT_EQ(t.intervals()[1].max_ns, 2000u);
  EXPECT_EQ(t.intervals()[2].completed(), 0u);
  EXPECT_EQ(count_of(t.intervals()[3], outcome::connection_closed), 1u);
  EXPECT_TRUE(t.intervals()[3].latency.empty()) << "a failure's time is not a latency";
  EXPECT_EQ(t.percentile(2, 99), 0u);
  EXPECT_EQ(t.percentile(7, 99), 0u) << "past the end";
}

TEST(timeline, an_intervals_percentiles_are_within_1_in_32_and_its_max_exact) {
  timeline_recorder r(1s);
  latency_histogram exact;
  std::mt19937_64 random(7);
  std::lognormal_distribution<double> latency(12.0, 1.0);  // about 160 us, a long tail
  for (int i = 0; i < 20000; ++i) {
    const auto ns = static_cast<std::uint64_t>(latency(random));
    r.completed(500 * ms, {}, ns);
    exact.record(ns);
  }
  const timeline t = r.result();
  for (double q : {1.0, 50.0, 90.0, 99.0, 99.9}) {
    const double want = static_cast<double>(exact.percentile(q));
    EXPECT_NEAR(static_cast<double>(t.percentile(0, q)), want, want / 32 + 1) << "p" << q;
  }
  EXPECT_EQ(t.percentile(0, 100), exact.max());
  EXPECT_EQ(t.intervals()[0].max_ns, exact.max());
  EXPECT_LT(t.intervals()[0].latency.size() * 10, exact.nonempty_buckets().size())
      << "coarse: a tenth of the buckets 3 digits need";
}

TEST(timeline, an_open_loops_calls_are_due_and_sent_in_their_own_intervals) {
  timeline_recorder r(100ms);
  r.scheduled(50 * ms, true, 60 * ms, false);
  r.scheduled(90 * ms, true, 130 * ms, true);   // waited for room: sent late, an interval on
  r.scheduled(95 * ms, false, 0, false);        // never sent
  const timeline t = r.result();
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.intervals()[0].due, 3u);
  EXPECT_EQ(t.intervals()[0].sent, 1u);
  EXPECT_EQ(t.intervals()[0].late, 0u);
  EXPECT_EQ(t.intervals()[1].due, 0u);
  EXPECT_EQ(t.intervals()[1].sent, 1u);
  EXPECT_EQ(t.intervals()[1].late, 1u);
}

TEST(timeline, threads_timelines_merge_as_if_one_had_recorded_everything) {
  timeline_recorder one(100ms), a(100ms), b(100ms);
  std::mt19937_64 random(3);
  for (std::uint64_t i = 0; i < 3000; ++i) {
    const std::uint64_t at = i * ms / 7, ns = 20'000 + random() % 5'000'000;
    const std::error_code ec = i % 13 == 0 ? make_error_code(errc::timeout) : std::error_code{};
    one.completed(at, ec, ns);
    (i % 2 == 0 ? a : b).completed(at, ec, ns);
  }
  timeline merged(100ms);
  merged.merge(a.result());
  merged.merge(b.result());
  const timeline whole = one.result();
  ASSERT_EQ(merged.size(), whole.size());
  for (std::size_t k = 0; k < whole.size(); ++k) {
    EXPECT_EQ(merged.intervals()[k].outcomes, whole.intervals()[k].outcomes) << k;
    EXPECT_EQ(merged.intervals()[k].latency, whole.intervals()[k].latency) << k;
    EXPECT_EQ(merged.intervals()[k].max_ns, whole.intervals()[k].max_ns) << k;
    EXPECT_EQ(merged.percentile(k, 99), whole.percentile(k, 99)) << k;
  }
}

TEST(timeline, a_merge_at_an_offset_moves_the_other_timeline_along) {
  timeline_recorder a(100ms), b(100ms);
  a.completed(0, {}, 10);
  b.completed(0, {}, 20);
  b.completed(150 * ms, errc::timeout, 0);
  timeline t = a.result();
  t.set_span(100ms);
  timeline later = b.result();
  later.set_span(160ms);
  t.merge(later, 3);  // b started 300 ms after a
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t.intervals()[0].ok(), 1u);
  EXPECT_EQ(t.intervals()[3].ok(), 1u);
  EXPECT_EQ(t.intervals()[3].max_ns, 20u);
  EXPECT_EQ(count_of(t.intervals()[4], outcome::timeout), 1u);
  EXPECT_EQ(t.span(), 460ms) << "to the later one's end";
}

TEST(coarse_latency_histogram, keeps_values_within_1_in_32) {
  for (std::uint64_t v : {0ULL, 1ULL, 127ULL, 128ULL, 1000ULL, 65'537ULL, 123'456'789ULL,
                          59'999'999'999ULL}) {
    const std::uint64_t low = coarse_latency_histogram::lowest_equivalent_value(v);
    const std::uint64_t high = coarse_latency_histogram::highest_equivalent_value(v);
    EXPECT_LE(low, v);
    EXPECT_GE(high, v);
    EXPECT_LE(high - low, low / 32) << v;
  }
  coarse_latency_histogram h;
  h.record_count(1000, 3);
  h.record_count(5000, 1);
  EXPECT_EQ(h.count(), 4u);
  EXPECT_EQ(h.min(), 1000u);
  EXPECT_EQ(h.max(), 5000u);
  EXPECT_EQ(h.sum_ns(), 8000u);
  EXPECT_EQ(h.percentile(75), 1007u) << "the highest value of 1000's bucket, [992, 1008)";
  h.record_count(latency_histogram::highest_trackable_ns + 1, 2);
  EXPECT_EQ(h.saturated(), 2u);
}

}  // namespace
}  // namespace wirebench
