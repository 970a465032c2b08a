// The recorder: a shard per recording thread, no lock on the record path, merged exactly.
#include "wirebench/load/call_recorder.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

TEST(CallRecorder, MergesWhatManyThreadsRecorded) {
  call_recorder recorder(/*track_actual=*/true);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&recorder, t] {
      for (int i = 0; i < 1000; ++i)
        recorder.local().record(static_cast<std::uint64_t>(i) * 1'000'000, true,
                                i % 10 == 0 ? errc::timeout : std::error_code{},
                                1000 + static_cast<std::uint64_t>(t), 500, i % 100 == 0);
    });
  for (auto& t : threads) t.join();
  const auto all = recorder.merged();
  EXPECT_EQ(all.outcomes.total(), 4000u);
  EXPECT_EQ(all.outcomes.count(outcome::timeout), 400u);
  EXPECT_EQ(all.latency.count(), 3600u);  // failures are counted, not timed
  EXPECT_EQ(all.actual_latency.count(), 3600u);
  EXPECT_EQ(all.actual_latency.max(), 500u);
  EXPECT_EQ(all.late, 40u);
  EXPECT_EQ(all.latency.max(), 1003u);
  EXPECT_EQ(recorder.completions(), 4000u);
  // Call i of each thread completed at i ms: 100 per 100 ms interval, 10 of them timeouts.
  ASSERT_EQ(all.calls_over_time.size(), 10u);
  for (const timeline_interval& row : all.calls_over_time.intervals()) {
    EXPECT_EQ(row.completed(), 400u);
    EXPECT_EQ(row.outcomes[static_cast<std::size_t>(outcome::timeout)], 40u);
    EXPECT_EQ(row.max_ns, 1003u);
  }
  EXPECT_EQ(all.calls_over_time.percentile(3, 100), 1003u);
}

TEST(CallRecorder, EachThreadKeepsOneShardOfItsOwn) {
  call_recorder recorder;
  call_recorder::shard* first = &recorder.local();
  EXPECT_EQ(&recorder.local(), first);
  call_recorder::shard* other = nullptr;
  std::thread([&] { other = &recorder.local(); }).join();
  EXPECT_NE(other, first);
}

TEST(CallRecorder, CallsOutsideTheWindowAreCountedNotRecorded) {
  call_recorder recorder;  // a closed loop's: the actual latency is the latency
  recorder.local().record(0, false, {}, 5);
  recorder.local().record(0, false, errc::timeout, 5);
  recorder.local().record(0, true, {}, 7);
  const auto all = recorder.merged();
  EXPECT_EQ(recorder.completions(), 3u);
  EXPECT_EQ(all.outcomes.total(), 1u);
  EXPECT_EQ(all.latency.count(), 1u);
  EXPECT_EQ(all.actual_latency.count(), 1u) << "copied from the latency when merged";
  EXPECT_EQ(all.actual_latency.max(), 7u);
  ASSERT_EQ(all.calls_over_time.size(), 1u) << "the timeline has every call, warm-up's too";
  EXPECT_EQ(all.calls_over_time.intervals()[0].completed(), 3u);
}

TEST(CallRecorder, ANewRecorderNeverInheritsAThreadsCachedShard) {
  // A recorder made where a freed one was must not find the old one's shard in the cache.
  auto a = std::make_unique<call_recorder>();
  a->local().record(0, true, {}, 1);
  a.reset();
  auto b = std::make_unique<call_recorder>();
  b->local().record(0, true, {}, 2);
  EXPECT_EQ(b->merged().outcomes.total(), 1u);
  EXPECT_EQ(b->completions(), 1u);
}

}  // namespace
}  // namespace wirebench
