// Service-level targets: what --slo reads and refuses, and how a step's repeats are judged.
#include "wirebench/load/slo.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "wirebench/core/error.hpp"
#include "wirebench/core/setting_error.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

TEST(slo, reads_quantiles_and_an_error_share) {
  const slo_target t = slo_target::parse("p99<=1ms,p50<=200us,p99.9<=5ms,max<=1s,errors<=0.1%");
  ASSERT_EQ(t.latency.size(), 4u);
  EXPECT_EQ(t.latency[0].percentile, 99);
  EXPECT_EQ(t.latency[0].at_most, 1ms);
  EXPECT_EQ(t.latency[2].percentile, 99.9);
  EXPECT_EQ(t.latency[3].percentile, 100);
  EXPECT_DOUBLE_EQ(*t.max_error_fraction, 0.001);
  EXPECT_DOUBLE_EQ(*slo_target::parse("p99<=1ms").max_error_fraction, 0.01);  // the default
}

TEST(slo, refuses_what_it_cannot_read_naming_the_part) {
  auto why = [](const char* text) {
    try {
      slo_target::parse(text);
    } catch (const setting_error& e) {
      return e.setting() + " " + e.detail();
    }
    return std::string("accepted");
  };
  EXPECT_EQ(why("p99<1ms"), "slo 'p99<1ms': 'p99<1ms' is not NAME<=LIMIT (p99<=1ms, errors<=0.1%)");
  EXPECT_NE(why("q99<=1ms").find("names no quantile"), std::string::npos);
  EXPECT_NE(why("p0<=1ms").find("names no quantile"), std::string::npos);
  EXPECT_NE(why("p101<=1ms").find("names no quantile"), std::string::npos);
  EXPECT_NE(why("pnan<=1ms").find("names no quantile"), std::string::npos);
  EXPECT_NE(why("p99<=1ms,errors<=nan%").find("needs a percentage"), std::string::npos);
  EXPECT_NE(why("p99<=1.5ms").find("needs a duration"), std::string::npos);
  EXPECT_NE(why("p99<=0ms").find("needs a duration"), std::string::npos);
  EXPECT_NE(why("p99<=1ms,errors<=0.1").find("needs a percentage"), std::string::npos);
  EXPECT_NE(why("errors<=1%").find("sets no latency target"), std::string::npos);
  EXPECT_NE(why("").find("sets no latency target"), std::string::npos);
}

repeat_result repeat_with(std::uint64_t fast, std::uint64_t slow_ns, std::uint64_t slow,
                          std::uint64_t failed = 0) {
  repeat_result r;
  for (std::uint64_t i = 0; i < fast; ++i) {
    r.load.latency.record(100'000);
    r.load.outcomes.add({});
  }
  for (std::uint64_t i = 0; i < slow; ++i) {
    r.load.latency.record(slow_ns);
    r.load.outcomes.add({});
  }
  for (std::uint64_t i = 0; i < failed; ++i) r.load.outcomes.add(errc::timeout);
  return r;
}

TEST(slo, judges_the_median_repeat_and_says_why_it_missed) {
  const slo_target t = slo_target::parse("p99<=1ms");
  // 2% of calls at 3 ms: p99 is 3 ms in two repeats of three, so the median misses.
  const std::vector<repeat_result> missed = {repeat_with(980, 3'000'000, 20),
                                             repeat_with(1000, 0, 0),
                                             repeat_with(980, 3'000'000, 20)};
  EXPECT_EQ(t.violation(missed), "p99 3ms > 1ms");
  const std::vector<repeat_result> met = {repeat_with(980, 3'000'000, 20), repeat_with(1000, 0, 0),
                                          repeat_with(1000, 0, 0)};
  EXPECT_EQ(t.violation(met), std::nullopt);
}

TEST(slo, fails_a_step_with_too_many_errors_or_no_success) {
  const slo_target t = slo_target::parse("p99<=1ms,errors<=0.1%");
  EXPECT_EQ(t.violation({repeat_with(1000, 0, 0, 1)}), std::nullopt);  // 0.0999%
  EXPECT_EQ(t.violation({repeat_with(1000, 0, 0, 5)}), "errors 0.498% > 0.1%");
  EXPECT_EQ(t.violation({repeat_with(0, 0, 0, 5)}), "no call succeeded");
  EXPECT_EQ(t.violation({}), "no repeat completed");
}

// --check's floor on throughput: read only for a check, judged on the median repeat.
TEST(slo, a_check_takes_a_floor_on_calls_per_second) {
  const slo_target t = slo_target::parse("rps>=1500", slo_target::use::check);
  EXPECT_TRUE(t.latency.empty());
  EXPECT_DOUBLE_EQ(*t.min_rps, 1500);
  repeat_result slow = repeat_with(1000, 0, 0), fast = repeat_with(2000, 0, 0);
  slow.load.window_seconds = fast.load.window_seconds = 1;
  EXPECT_EQ(t.violation({slow, fast, fast}), std::nullopt);
  EXPECT_EQ(t.violation({slow, slow, fast}), "rps 1000 < 1500");
  auto why = [](const char* text, slo_target::use u) {
    try {
      slo_target::parse(text, u);
    } catch (const setting_error& e) {
      return e.detail();
    }
    return std::string("accepted");
  };
  EXPECT_NE(why("p99<=1ms,rps>=10", slo_target::use::search).find("is what the search finds"), std::string::npos);
  EXPECT_NE(why("p99>=1ms", slo_target::use::check).find("only rps>=N"), std::string::npos);
  EXPECT_NE(why("rps>=0", slo_target::use::check).find("above 0"), std::string::npos);
  EXPECT_NE(why("", slo_target::use::check).find("sets no target"), std::string::npos);
}

}  // namespace
}  // namespace wirebench
