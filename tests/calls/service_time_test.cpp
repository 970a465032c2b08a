#include "wirebench/calls/service_time.hpp"

#include <gtest/gtest.h>

namespace wirebench {
namespace {

using namespace std::chrono_literals;

TEST(service_time, parses_and_prints_each_model) {
  for (const char* text : {"none", "fixed:100us", "exp:250us", "skewed:100:5ms", "fixed:2s", "fixed:7ns", "busy:1ms"})
    EXPECT_EQ(service_time_model::parse(text).to_string(), text);
  EXPECT_TRUE(service_time_model::parse("busy:1ms").holds_thread());
  EXPECT_FALSE(service_time_model::parse("fixed:1ms").holds_thread());
  auto s = service_time_model::parse("skewed:50:3ms");
  EXPECT_EQ(s.type, service_time_model::kind::skewed);
  EXPECT_EQ(s.one_in, 50u);
  EXPECT_EQ(s.mean, 3ms);
}

TEST(service_time, refuses_malformed_text) {
  for (const char* bad : {"fast", "fixed", "fixed:", "fixed:10", "fixed:10d", "exp:0us", "skewed:5ms",
                          "skewed:0:5ms", "skewed:x:5ms", "fixed:-5us"})
    EXPECT_THROW(service_time_model::parse(bad), std::invalid_argument) << bad;
}

TEST(service_time, samples_follow_the_model) {
  std::mt19937_64 rng(1);
  EXPECT_EQ(service_time_model::parse("fixed:40us").sample(rng), 40us);
  EXPECT_EQ(service_time_model::parse("none").sample(rng), 0ns);
  const auto exp = service_time_model::parse("exp:100us");
  double sum = 0;
  for (int i = 0; i < 100000; ++i) sum += static_cast<double>(exp.sample(rng).count());
  EXPECT_NEAR(sum / 100000, 100000.0, 2000.0);  // mean 100 µs within 2 %
  const auto skewed = service_time_model::parse("skewed:100:5ms");
  int slow = 0;
  for (int i = 0; i < 100000; ++i) slow += skewed.sample(rng) == 5ms;
  EXPECT_NEAR(slow, 1000, 150);
}

}  // namespace
}  // namespace wirebench
