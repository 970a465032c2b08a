// The live counts a progress line reads while a run goes on: buckets that hold every latency
// (four per power of two, each top the bucket's largest), a p99 from the difference of two
// readings, and the calls a recorder's shards counted, read while they record.
#include "wirebench/load/live_counts.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "wirebench/core/error.hpp"
#include "wirebench/load/call_recorder.hpp"

namespace wirebench {
namespace {

TEST(live_counts, every_latency_falls_in_a_bucket_whose_top_holds_it) {
  for (std::uint64_t ns : {0ull, 1ull, 3ull, 4ull, 7ull, 8ull, 9ull, 10ull, 1000ull, 131071ull, 131072ull,
                           1'000'000'007ull, ~0ull}) {
    const std::size_t b = live_counts::bucket_of(ns);
    ASSERT_LT(b, live_counts::buckets) << ns;
    EXPECT_LE(ns, live_counts::bucket_top(b)) << ns;
    if (b > 0) {
      EXPECT_GT(ns, live_counts::bucket_top(b - 1)) << ns;
    }
    // Within a quarter of the value: enough for a live line.
    EXPECT_LE(static_cast<double>(live_counts::bucket_top(b)), static_cast<double>(ns) * 1.25 + 1) << ns;
  }
}

TEST(live_counts, the_p99_of_the_last_second_is_read_from_two_readings) {
  live_tally t;
  for (int i = 0; i < 1000; ++i) t.record(true, 1'000'000);  // a slow first second: 1 ms
  live_counts first;
  t.add_to(first);
  for (int i = 0; i < 990; ++i) t.record(true, 100'000);  // then 100 us, 1% at 10 ms, 5 failed
  for (int i = 0; i < 10; ++i) t.record(true, 10'000'000);
  for (int i = 0; i < 5; ++i) t.record(false, 0);
  live_counts second;
  t.add_to(second);
  const live_counts last = second.since(first);
  EXPECT_EQ(last.completed, 1005u);
  EXPECT_EQ(last.failed, 5u);
  const auto p99 = last.percentile_ns(99);
  ASSERT_TRUE(p99);
  EXPECT_GE(*p99, 100'000u);
  EXPECT_LT(*p99, 125'001u) << "the 990th of 1000 is a 100 us call";
  EXPECT_GE(*last.percentile_ns(100), 10'000'000u);
  EXPECT_FALSE(live_counts{}.percentile_ns(99)) << "no successful call: no quantile";
}

TEST(live_counts, a_recorder_is_read_while_its_threads_record) {
  call_recorder recorder;
  recorder.keep_live_counts();  // a progress line reads them (off by default: no cost)
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&recorder, k] {
      for (int i = 0; i < 10000; ++i)
        recorder.local().record(static_cast<std::uint64_t>(i), true, i % 10 == k ? make_error_code(errc::timeout) : std::error_code{},
                                50'000);
    });
  std::uint64_t last = 0;
  while (last < 40000) {  // readings only grow, and end at every call
    const live_counts now = recorder.live();
    ASSERT_GE(now.completed, last);
    last = now.completed;
  }
  for (auto& t : threads) t.join();
  const live_counts all = recorder.live();
  EXPECT_EQ(all.completed, 40000u);
  EXPECT_EQ(all.failed, 4000u);
  // Unless asked for, none are kept: a run without a progress line pays nothing for them.
  call_recorder quiet;
  quiet.local().record(1, true, {}, 50'000);
  EXPECT_EQ(quiet.live().completed, 0u);
  EXPECT_EQ(quiet.local().completions(), 1u);
}

}  // namespace
}  // namespace wirebench
