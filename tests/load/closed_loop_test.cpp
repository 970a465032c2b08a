// The closed-loop driver under both stop policies: a time window (run_closed_loop) and a call
// count (what the Google Benchmark cases use): every call it starts completes before stop()
// returns, each worker has one call in flight on its own lane, and replies are checked per worker.
#include "wirebench/load/closed_loop.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "load/fake_client.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/load/load_driver.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using testing::fake_answer;
using testing::fake_client;

TEST(ClosedLoopDriver, CountPolicyRecordsTheWindowAndStopsWithNothingInFlight) {
  fake_client client;
  closed_loop loop(client, 4);
  loop.start();
  loop.wait_for_completions(200);  // warm-up: counted, not recorded
  EXPECT_GE(loop.completions(), 200u);
  loop.open_window();
  const std::uint64_t from = loop.completions();
  // The 4 calls in flight as the window opened began before it: counted, not recorded. So 1000
  // recorded ones need 1004 completions (CI under ASan once had 999 of 1000).
  loop.wait_for_completions(from + 1004);
  EXPECT_GE(loop.completions(), from + 1004);
  loop.close_window();
  loop.stop();
  EXPECT_EQ(client.unanswered(), 0u) << "stop() returned with calls in flight";
  const auto calls_at_stop = client.calls();
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(client.calls(), calls_at_stop) << "a worker called after stop()";
  const auto r = loop.results();
  EXPECT_GE(r.outcomes.count(outcome::ok), 1000u);
  EXPECT_LT(r.outcomes.total(), loop.completions()) << "the warm-up is not recorded";
  EXPECT_EQ(r.latency.count(), r.outcomes.total());
}

TEST(ClosedLoopDriver, EachWorkerKeepsOneCallInFlightOnItsOwnLane) {
  // A client that remembers which lane each name used and how many calls were in flight.
  class lane_client final : public protocol_client {
   public:
    void async_greet(std::string_view name, call_options options, call_completion done) override {
      if (!options.has_lane()) ADD_FAILURE() << "no lane";
      {
        std::lock_guard lock(m);
        lanes[std::string(name)].insert(options.lane);
        max_in_flight = std::max(max_in_flight, ++in_flight);
      }
      inner.async_greet(name, [this, d = std::move(done)](std::error_code ec, std::string_view r) {
        {
          std::lock_guard lock(m);
          --in_flight;
        }
        d(ec, r);
      });
    }
    void close() override { inner.close(); }
    fake_client inner{1ms};
    std::mutex m;
    std::map<std::string, std::set<std::size_t>> lanes;
    int in_flight = 0, max_in_flight = 0;
  } client;
  closed_loop loop(client, 5);
  loop.start();
  loop.wait_for_completions(100);
  loop.stop();
  std::lock_guard lock(client.m);
  ASSERT_EQ(client.lanes.size(), 5u) << "one name per worker";
  for (std::size_t w = 0; w < 5; ++w)
    EXPECT_EQ(client.lanes[greet_name(w, 5)], std::set<std::size_t>{w}) << "worker " << w;
  EXPECT_EQ(client.max_in_flight, 5);
}

TEST(ClosedLoopDriver, AReplyMeantForAnotherWorkerIsAWrongReply) {
  // Every reply greets worker 0: right for worker 0, wrong for the others.
  fake_client client({}, [](std::uint64_t) -> fake_answer { return {{}, expected_greeting(greet_name(0, 5))}; });
  closed_loop loop(client, 3);
  loop.start();
  loop.open_window();
  // 300 measured completions: under load, many may have completed in the warm-up already.
  loop.wait_for_completions(loop.completions() + 300);
  loop.stop();
  const auto r = loop.results();
  EXPECT_GT(r.outcomes.count(outcome::ok), 0u);
  EXPECT_GT(r.outcomes.count(outcome::wrong_reply), r.outcomes.count(outcome::ok));
}

TEST(ClosedLoopDriver, TimePolicyMeasuresTheWindowOnly) {
  fake_client client;
  load_spec s;
  s.workers = 2;
  s.warmup = 30ms;
  s.duration = 100ms;
  const load_result r = run_closed_loop(client, s);
  EXPECT_EQ(client.unanswered(), 0u);
  EXPECT_GT(r.outcomes.count(outcome::ok), 0u);
  EXPECT_LT(r.outcomes.total(), client.calls());
  EXPECT_NEAR(r.window_seconds, 0.1, 0.05);
  EXPECT_EQ(r.actual_latency.count(), r.latency.count()) << "closed loop: the same latency";
}

TEST(ClosedLoopDriver, StopWithoutStartAndTwiceIsHarmless) {
  fake_client client;
  {
    closed_loop idle(client, 2);
    idle.stop();
  }
  closed_loop loop(client, 2);
  loop.start();
  loop.stop();
  loop.stop();
  EXPECT_EQ(client.unanswered(), 0u);
}

}  // namespace
}  // namespace wirebench

namespace wirebench {
namespace {

// Which workers call: those below set_active()'s count; the others rest once their call is done,
// and wake when the count rises again. A stop retires the resting ones too.
// The names a fake client was called with since the last look (any thread).
class caller_names {
 public:
  explicit caller_names(fake_client& client) {
    client.on_call = [this](std::string_view name) {
      std::lock_guard lock(m_);
      names_.insert(std::string(name));
    };
  }
  std::set<std::string> take() {
    std::lock_guard lock(m_);
    return std::exchange(names_, {});
  }

 private:
  std::mutex m_;
  std::set<std::string> names_;
};

TEST(ClosedLoopDriver, OnlyTheActiveWorkersCallAndRestingOnesWakeAndRetire) {
  fake_client client(1ms);
  caller_names callers(client);
  closed_loop loop(client, 6);
  loop.set_active(2);
  loop.start(/*measured=*/true);
  loop.wait_for_completions(50);
  auto seen = [&] { return callers.take(); };
  (void)seen();  // what started before the first look
  loop.wait_for_completions(loop.completions() + 50);
  EXPECT_EQ(seen(), (std::set<std::string>{greet_name(0, 5), greet_name(1, 5)}));
  loop.set_active(5);
  loop.wait_for_completions(loop.completions() + 100);
  (void)seen();
  loop.wait_for_completions(loop.completions() + 100);
  EXPECT_EQ(seen().size(), 5u) << "three resting workers did not wake";
  loop.set_active(1);
  loop.wait_for_completions(loop.completions() + 20);  // each of the others rests after its call
  (void)seen();
  loop.wait_for_completions(loop.completions() + 50);
  EXPECT_EQ(seen(), std::set<std::string>{greet_name(0, 5)});
  loop.stop();  // returns: five resting workers and one calling all retire
  EXPECT_EQ(loop.results().outcomes.failed(), 0u);
}

// A run whose workers follow stages: none at first, up to 8 over 300 ms, held 300 ms: the calls
// come from at most 8 workers, all counted in a window of the stages' length.
TEST(ClosedLoopDriver, WorkerStagesRampTheCallers) {
  fake_client client(1ms);
  caller_names callers(client);
  load_spec s;
  s.workers = 8;
  s.worker_stages = rate_profile({{8, 300ms}, {8, 300ms}});
  const load_result r = run_load(client, s);
  EXPECT_NEAR(r.window_seconds, 0.6, 0.05);
  EXPECT_GT(r.outcomes.count(outcome::ok), 100u);
  EXPECT_EQ(r.outcomes.failed(), 0u);
  EXPECT_EQ(callers.take().size(), 8u);
  // The timeline's workers column follows the ramp: rising through the first 300 ms, then 8.
  const auto& rows = r.calls_over_time.intervals();
  ASSERT_GE(rows.size(), 6u);
  EXPECT_LE(rows[0].workers, 4u);
  for (std::size_t i = 1; i < 3; ++i) EXPECT_GE(rows[i].workers, rows[i - 1].workers) << i;
  EXPECT_GE(rows[2].workers, 5u);
  EXPECT_EQ(rows[3].workers, 8u);
  EXPECT_EQ(rows[4].workers, 8u);
}

}  // namespace
}  // namespace wirebench
