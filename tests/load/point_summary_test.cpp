// summarize: medians and spread over repeats, outcome sums, CPU per call, and the warning when the
// generator rather than the server was the limit.
#include "wirebench/load/point_summary.hpp"

#include <gtest/gtest.h>

#include "wirebench/core/error.hpp"
#include "wirebench/load/call_recorder.hpp"

#include <thread>

namespace wirebench {
namespace {

// A repeat of `ok` successful calls of `latency_us` each (and `failed` timeouts) in one second.
repeat_result repeat(std::uint64_t ok, std::uint64_t latency_us, double client_cpu,
                     std::optional<double> server_cpu, std::uint64_t failed = 0) {
  repeat_result r;
  for (std::uint64_t i = 0; i < ok; ++i) {
    r.load.latency.record(latency_us * 1000);
    r.load.actual_latency.record(latency_us * 1000);
    r.load.outcomes.add({});
  }
  for (std::uint64_t i = 0; i < failed; ++i) r.load.outcomes.add(errc::timeout);
  r.load.window_seconds = 1;
  r.client_cpu = {client_cpu, 0};
  if (server_cpu) r.server_cpu = cpu_time{*server_cpu / 2, *server_cpu / 2};
  return r;
}

TEST(PointSummary, MediansAndSpreadOverRepeats) {
  const auto s = summarize({repeat(1000, 100, 0.1, 0.2), repeat(3000, 300, 0.1, 0.2),
                            repeat(2000, 200, 0.1, 0.2, 5)},
                           {2, 2});
  EXPECT_EQ(s.repeats, 3u);
  EXPECT_EQ(s.rps_median, 2000);
  EXPECT_EQ(s.rps_min, 1000);
  EXPECT_EQ(s.rps_max, 3000);
  EXPECT_NEAR(s.latency.p50, 200, 0.5);
  EXPECT_EQ(s.outcomes.count(outcome::ok), 6000u);
  EXPECT_EQ(s.outcomes.count(outcome::timeout), 5u);
  EXPECT_NEAR(s.client_cores_used, 0.1, 1e-9);
  ASSERT_TRUE(s.server_cores_used);
  EXPECT_NEAR(*s.server_cores_used, 0.2, 1e-9);
  // 0.2 s of server CPU over 2005 calls (the median repeat by that measure).
  ASSERT_TRUE(s.server_cpu_us_per_call);
  EXPECT_NEAR(*s.server_cpu_us_per_call, 0.2e6 / 2005, 1e-6);
  EXPECT_FALSE(s.client_bound);
  EXPECT_TRUE(s.warning.empty());
}

TEST(PointSummary, SumsRepliesThatMatchedNoCall) {
  auto a = repeat(10, 100, 0, 0.0);
  auto b = repeat(10, 100, 0, 0.0);
  a.client.late_replies = 2;
  b.client.late_replies = 3;
  b.client.unknown_replies = 1;
  const auto s = summarize({a, b}, {2, 2});
  EXPECT_EQ(s.client.late_replies, 5u);
  EXPECT_EQ(s.client.unknown_replies, 1u);
}

TEST(PointSummary, EvenRepeatsTakeTheMiddlePairsMean) {
  const auto s = summarize({repeat(1000, 100, 0, 0.0), repeat(2000, 100, 0, 0.0)}, {2, 2});
  EXPECT_EQ(s.rps_median, 1500);
}

TEST(PointSummary, WarnsWhenTheClientUsedAllItsCores) {
  const auto s = summarize({repeat(1000, 100, 0.95, 0.3)}, {1, 2});
  EXPECT_TRUE(s.client_bound);
  EXPECT_NE(s.warning.find("generator"), std::string::npos);
}

TEST(PointSummary, WarnsWhenTheMachineIsSaturatedMostlyByTheClient) {
  EXPECT_TRUE(summarize({repeat(1000, 100, 1.3, 0.6)}, {3, 2}).client_bound);
  // Saturated, but the server took as much: not the generator's fault.
  EXPECT_FALSE(summarize({repeat(1000, 100, 1.0, 0.95)}, {3, 2}).client_bound);
}

TEST(PointSummary, ARemoteServerHasNoServerFigures) {
  const auto s = summarize({repeat(1000, 100, 0.1, std::nullopt)}, {2, 2});
  EXPECT_FALSE(s.server_cores_used);
  EXPECT_FALSE(s.server_cpu_us_per_call);
}

}  // namespace
}  // namespace wirebench
