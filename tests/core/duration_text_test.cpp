#include "wirebench/core/duration_text.hpp"

#include <gtest/gtest.h>

namespace wirebench {
namespace {

using namespace std::chrono_literals;

TEST(duration_text, parses_each_unit) {
  EXPECT_EQ(parse_duration("7ns"), 7ns);
  EXPECT_EQ(parse_duration("250us"), 250us);
  EXPECT_EQ(parse_duration("5ms"), 5ms);
  EXPECT_EQ(parse_duration("30s"), 30s);
  EXPECT_EQ(parse_duration("0s"), 0ns);
  EXPECT_EQ(parse_duration("2m"), 120s);
  EXPECT_EQ(parse_duration("1h"), 3600s);
}

// Go's and k6's compound durations: pieces largest unit first.
TEST(duration_text, parses_pieces_largest_unit_first) {
  EXPECT_EQ(parse_duration("1m30s"), 90s);
  EXPECT_EQ(parse_duration("1h2m3s4ms5us6ns"), 1h + 2min + 3s + 4ms + 5us + 6ns);
  EXPECT_EQ(parse_duration("2s500ms"), 2500ms);
  for (const char* bad : {"30s1m", "1s1s", "1m 30s", "1m30", "1ms1s", "2562047h48m", "m30s"})
    EXPECT_EQ(parse_duration(bad), std::nullopt) << bad;
}

TEST(duration_text, refuses_what_is_not_a_whole_number_and_a_unit) {
  for (const char* bad : {"", "5", "s", "5d", "5min", "1.5s", "-5us", "+5us", " 5s", "5 s", "5sec",
                          "5s ", "9223372036854775807s"})
    EXPECT_EQ(parse_duration(bad), std::nullopt) << bad;
}

TEST(duration_text, formats_in_the_largest_exact_unit_and_reads_back) {
  EXPECT_EQ(format_duration(300s), "300s");
  EXPECT_EQ(format_duration(1500ms), "1500ms");
  EXPECT_EQ(format_duration(250us), "250us");
  EXPECT_EQ(format_duration(1001ns), "1001ns");
  EXPECT_EQ(format_duration(0ns), "0s");
  for (const auto d : {0ns, 1ns, 999ns, 1000ns, 1234567ns, 5000000ns, 7000000000ns,
                       std::chrono::nanoseconds::max()})
    EXPECT_EQ(parse_duration(format_duration(d)), d) << d.count();
}

}  // namespace
}  // namespace wirebench
