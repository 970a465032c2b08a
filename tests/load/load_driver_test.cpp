// The load drivers against a client without a network: every call issued is accounted for, replies
// are checked, outcomes are counted by type, and the open loop times from the intended start.
#include "wirebench/load/load_driver.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#include "load/fake_client.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/status_error.hpp"

namespace wirebench {
namespace {

using testing::fake_answer;
using testing::fake_client;

load_spec closed(std::size_t workers, std::chrono::milliseconds duration) {
  load_spec s;
  s.workers = workers;
  s.warmup = 20ms;
  s.duration = duration;
  return s;
}

load_spec open(arrival_kind kind, double rate, std::size_t in_flight,
               std::chrono::milliseconds duration) {
  load_spec s;
  s.arrivals = kind;
  s.rate = rate;
  s.workers = in_flight;
  s.duration = duration;
  return s;
}

TEST(ClosedLoop, RecordsEveryMeasuredCallAndWaitsForAllOfThem) {
  fake_client client;
  const load_result r = run_load(client, closed(4, 100ms));
  EXPECT_EQ(client.unanswered(), 0u) << "returned with calls in flight";
  EXPECT_GT(r.outcomes.total(), 0u);
  EXPECT_EQ(r.outcomes.count(outcome::ok), r.outcomes.total());
  EXPECT_EQ(r.latency.count(), r.outcomes.total());
  EXPECT_EQ(r.actual_latency.count(), r.outcomes.total());
  EXPECT_LT(r.outcomes.total(), client.calls()) << "warm-up calls must not be recorded";
  EXPECT_GE(r.window_seconds, 0.1);
  EXPECT_EQ(r.late, 0u);
  EXPECT_EQ(r.requests_per_second(), static_cast<double>(r.outcomes.total()) / r.window_seconds);
}

TEST(ClosedLoop, CountsWrongRepliesAndErrorsByTypeAndKeepsThemOutOfTheLatencies) {
  fake_client client({}, [](std::uint64_t i) -> fake_answer {
    if (i % 3 == 0) return {{}, "hello, somebody else"};
    if (i % 3 == 1) return {errc::timeout, {}};
    return {};
  });
  const load_result r = run_load(client, closed(2, 100ms));
  EXPECT_GT(r.outcomes.count(outcome::wrong_reply), 0u);
  EXPECT_GT(r.outcomes.count(outcome::timeout), 0u);
  EXPECT_GT(r.outcomes.count(outcome::ok), 0u);
  EXPECT_EQ(r.outcomes.errors().at("wrong_reply"), r.outcomes.count(outcome::wrong_reply));
  EXPECT_EQ(r.latency.count(), r.outcomes.count(outcome::ok));
}

// A client with a user call has judged its replies: any reply it passes is a success (a server's
// "OK" is no greeting), and the errors it reports are counted by their own names.
TEST(LoadDriver, RepliesToAUserCallAreNotComparedWithAGreeting) {
  for (const bool open_loop : {false, true}) {
    fake_client client({}, [](std::uint64_t i) -> fake_answer {
      if (i % 2 == 0) return {{}, "OK"};
      return {unexpected_status(404), {}};
    });
    client.user_call = true;
    const load_result r = run_load(client, open_loop ? open(arrival_kind::uniform, 2000, 8, 100ms)
                                                     : closed(2, 100ms));
    EXPECT_GT(r.outcomes.count(outcome::ok), 0u) << open_loop;
    EXPECT_EQ(r.outcomes.count(outcome::wrong_reply), 0u) << open_loop;
    EXPECT_EQ(r.outcomes.errors().at("status_404"), r.outcomes.count(outcome::other_error)) << open_loop;
    EXPECT_GT(r.outcomes.count(outcome::other_error), 0u) << open_loop;
  }
}

TEST(ClosedLoop, WorkersHaveOneCallInFlightEach) {
  fake_client client(5ms);
  const load_result r = run_load(client, closed(3, 100ms));
  // 3 callers, 5 ms per call: at most 3 calls per 5 ms, however the threads are scheduled.
  EXPECT_LE(r.outcomes.total(), 3u * (100 / 5 + 1));
  EXPECT_GE(r.latency.min(), 5'000'000u);
}

TEST(LoadDriver, OpensAndClosesTheMeasuredWindowOnce) {
  for (bool open_loop : {false, true}) {
    fake_client client;
    load_spec s = open_loop ? open(arrival_kind::uniform, 1000, 8, 50ms) : closed(2, 50ms);
    std::vector<bool> calls;
    s.on_window = [&](bool opening) { calls.push_back(opening); };
    run_load(client, s);
    EXPECT_EQ(calls, (std::vector<bool>{true, false})) << (open_loop ? "open" : "closed");
  }
}

TEST(OpenLoop, SendsExactlyTheCallsTheScheduleAsksForInTheWindow) {
  fake_client client;
  load_spec s = open(arrival_kind::uniform, 2000, 64, 200ms);
  s.warmup = 50ms;
  const load_result r = run_load(client, s);
  EXPECT_EQ(r.planned, 400u);  // 2000/s over 200 ms; the 100 warm-up calls are not counted
  EXPECT_EQ(client.calls(), 500u);
  EXPECT_EQ(r.outcomes.total(), r.planned);
  EXPECT_EQ(r.outcomes.count(outcome::ok), r.planned);
  EXPECT_EQ(client.unanswered(), 0u);
}

TEST(OpenLoop, TimesFromTheIntendedStartWhenCallsWaitToBeSent) {
  // One call in flight at a time, 50 ms each, but 200 due per second: calls queue behind each
  // other. Timed from the intended start their latency grows with the queue; from the actual
  // send it stays 50 ms. This is the coordinated omission an open loop must not hide.
  fake_client client(50ms);
  const load_result r = run_load(client, open(arrival_kind::uniform, 200, 1, 100ms));
  ASSERT_EQ(r.planned, 20u);
  EXPECT_EQ(r.outcomes.count(outcome::ok), 20u);
  EXPECT_GE(r.late, 15u);  // all but the first few were sent well after their time
  EXPECT_GE(r.actual_latency.min(), 50'000'000u);
  EXPECT_GE(r.latency.max(), 500'000'000u);  // the last call waited for 19 before it
  EXPECT_GT(r.latency.percentile(50), r.actual_latency.percentile(50));
}

TEST(OpenLoop, CallsWithRoomInFlightAreSentOnTime) {
  fake_client client(50ms);
  load_spec s = open(arrival_kind::uniform, 200, 100, 100ms);
  s.late_after = 100ms;  // generous: this checks the waiting rule, not the machine's timer
  const load_result r = run_load(client, s);
  EXPECT_EQ(r.outcomes.count(outcome::ok), 20u);
  EXPECT_EQ(r.late, 0u);
  EXPECT_GE(r.latency.min(), 50'000'000u);
}

TEST(OpenLoop, EveryCallGreetsANameOfItsOwnAndAMisroutedReplyIsCaught) {
  // The reply of each call is the previous call's greeting: right in shape, for the wrong call.
  std::mutex m;
  std::vector<std::string> names;
  fake_client client({}, [&](std::uint64_t i) -> fake_answer {
    std::lock_guard lock(m);
    return {{}, i == 0 ? std::string("?") : expected_greeting(names[i - 1])};
  });
  client.on_call = [&](std::string_view name) {
    std::lock_guard lock(m);
    names.emplace_back(name);
  };
  const load_result r = run_load(client, open(arrival_kind::uniform, 2000, 8, 100ms));
  EXPECT_EQ(r.outcomes.count(outcome::wrong_reply), r.outcomes.total());
  std::lock_guard lock(m);
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
}

TEST(OpenLoop, BurstySchedulesStartEachSecondsCallsTogether) {
  fake_client client;
  load_spec s = open(arrival_kind::bursty, 50, 1000, 1000ms);
  s.warmup = 100ms;  // evenly spaced; the burst belongs to the measured window
  const load_result r = run_load(client, s);
  EXPECT_EQ(r.planned, 50u);
  EXPECT_EQ(r.outcomes.count(outcome::ok), 50u);
  EXPECT_EQ(client.calls(), 55u);
}

// The schedule runs on the client's own loop when it has one: every call is made there (none
// crosses a thread), and the run still sends exactly what the schedule asks for.
TEST(OpenLoop, RunsItsScheduleOnTheClientsOwnLoop) {
  testing::loop_client client(1ms);
  load_spec s = open(arrival_kind::poisson, 3000, 16, 200ms);
  s.warmup = 50ms;
  const load_result r = run_load(client, s);
  EXPECT_EQ(client.calls_off_loop.load(), 0u);
  EXPECT_EQ(r.outcomes.count(outcome::ok), r.planned);
  EXPECT_EQ(r.issued, r.planned);
  EXPECT_NEAR(static_cast<double>(r.planned), 600.0, 5 * std::sqrt(600.0));
}

// A call that waits for room in flight longer than the call timeout times out there, unsent:
// a server that stops answering holds the schedule up no longer than its calls' deadlines.
TEST(OpenLoop, ACallThatWaitsForRoomPastItsTimeoutTimesOutUnsent) {
  fake_client client(300ms);
  load_spec s = open(arrival_kind::uniform, 100, 2, 500ms);
  s.call_timeout = 200ms;
  const auto started = std::chrono::steady_clock::now();
  const load_result r = run_load(client, s);
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(r.planned, 50u);
  EXPECT_EQ(r.outcomes.total(), r.planned);
  EXPECT_LT(r.issued, r.planned);
  // Those never sent are among the timeouts (the ones sent may time out too, at the client).
  EXPECT_GE(r.outcomes.count(outcome::timeout), r.planned - r.issued);
  // The last call is due at 490 ms, and may wait 200 ms for room, then the client's 300 ms.
  EXPECT_LT(took, 1500ms);
}

TEST(LoadDriver, GivesUpWhenTheCallerSaysSoAndSaysWhy) {
  for (const bool open_loop : {false, true}) {
    fake_client client;
    load_spec s = open_loop ? open(arrival_kind::uniform, 1000, 8, 10s) : closed(2, 10s);
    const auto started = std::chrono::steady_clock::now();
    s.give_up = [&]() -> std::string {
      return std::chrono::steady_clock::now() - started > 100ms ? "enough" : "";
    };
    const load_result r = run_load(client, s);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 2s) << open_loop;
    EXPECT_EQ(r.gave_up, "enough") << open_loop;
    EXPECT_EQ(client.unanswered(), 0u) << open_loop;
    EXPECT_LT(r.window_seconds, 1.0) << open_loop;
    if (open_loop) {
      EXPECT_EQ(r.outcomes.total(), r.planned);
    }
  }
}

// -n: a window of exactly N calls. Closed loop: the workers share them (N / W each, the first
// N % W one more) and the window ends when the last completes. Open loop: N arrivals at the rate,
// its window the span they fill (N / rate when uniform), however long the duration would be.
TEST(LoadDriver, ACallCountMakesExactlyThatManyCallsInEitherLoop) {
  for (const std::uint64_t n : {1u, 5u, 997u}) {
    fake_client client(1ms);
    load_spec s = closed(7, 10s);  // the duration is the cap here: never reached
    s.calls = n;
    const auto started = std::chrono::steady_clock::now();
    const load_result r = run_load(client, s);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
    EXPECT_EQ(r.issued, n);
    EXPECT_EQ(r.outcomes.total(), n);
    EXPECT_EQ(r.outcomes.count(outcome::ok), n);
    EXPECT_TRUE(r.gave_up.empty()) << r.gave_up;
    EXPECT_EQ(client.unanswered(), 0u);
    EXPECT_GT(r.window_seconds, 0.0);
    EXPECT_LT(r.window_seconds, 5.0);
  }
  for (auto kind : {arrival_kind::uniform, arrival_kind::poisson, arrival_kind::bursty}) {
    fake_client client;
    load_spec s = open(kind, 2000, 16, 10s);
    s.warmup = 20ms;
    s.calls = 300;
    const auto started = std::chrono::steady_clock::now();
    const load_result r = run_load(client, s);
    EXPECT_LT(std::chrono::steady_clock::now() - started, kind == arrival_kind::bursty ? 3s : 2s);
    EXPECT_EQ(r.planned, 300u) << arrival_kind_name(kind);
    EXPECT_EQ(r.outcomes.total(), 300u) << arrival_kind_name(kind);
    EXPECT_EQ(r.outcomes.count(outcome::ok), 300u) << arrival_kind_name(kind);
    EXPECT_TRUE(r.gave_up.empty()) << r.gave_up;
    EXPECT_EQ(client.unanswered(), 0u);
    if (kind == arrival_kind::uniform) {
      EXPECT_DOUBLE_EQ(r.window_seconds, 0.15);  // 300 at 2000/s
    }
  }
}

// The duration caps a count: a server too slow for N calls in it ends the run there, saying so,
// in either loop, with every call it made counted once.
TEST(LoadDriver, ACallCountThatCannotFinishInTheCapGivesUpAtTheCap) {
  for (const bool open_loop : {false, true}) {
    fake_client client(20ms);
    load_spec s = open_loop ? open(arrival_kind::uniform, 100, 2, 300ms) : closed(2, 300ms);
    s.calls = 1000;  // 10 s at 100/s; at most 100 calls/s get through 2 slots of 20 ms
    const auto started = std::chrono::steady_clock::now();
    const load_result r = run_load(client, s);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 3s) << open_loop;
    EXPECT_EQ(r.gave_up, "the time cap (300ms) passed before all 1000 calls were made") << open_loop;
    EXPECT_LT(r.outcomes.total(), 1000u) << open_loop;
    EXPECT_GT(r.outcomes.total(), 0u) << open_loop;
    EXPECT_EQ(r.outcomes.total(), open_loop ? r.planned : r.issued) << open_loop;
    EXPECT_EQ(client.unanswered(), 0u) << open_loop;
  }
}

// A closed loop whose calls outlast the window (a server that never answers in time): the calls
// in flight across the whole window are counted, not lost between the warm-up and the window.
TEST(ClosedLoop, CountsTheCallsInFlightAcrossTheWholeWindow) {
  fake_client client(300ms);
  load_spec s = closed(2, 100ms);
  const load_result r = run_load(client, s);
  EXPECT_EQ(r.issued, 2u);
  EXPECT_EQ(r.outcomes.count(outcome::ok), 2u);
  EXPECT_GE(r.latency.min(), 300'000'000u);
}

// The watchdog: a client that never completes some calls (a broken promise) cannot hold a run
// past the window, the call timeout and the grace. It names where the calls were, closes the
// client, and counts what it completed then as unfinished; nothing is lost or counted twice.
TEST(LoadDriver, TheWatchdogEndsARunWhoseCallsNeverComeBack) {
  for (const bool open_loop : {false, true}) {
    fake_client client;
    client.lose = [](std::uint64_t i) { return i % 50 == 7; };
    load_spec s = open_loop ? open(arrival_kind::uniform, 1000, 16, 300ms) : closed(4, 300ms);
    s.call_timeout = 200ms;
    s.watchdog_grace = 300ms;
    const auto started = std::chrono::steady_clock::now();
    const load_result r = run_load(client, s);
    const auto took = std::chrono::steady_clock::now() - started;
    EXPECT_LT(took, 300ms + 200ms + 300ms + 1s) << open_loop;
    EXPECT_FALSE(r.stuck) << open_loop;
    EXPECT_NE(r.watchdog.find(open_loop ? "client thread 0" : "workers "), std::string::npos)
        << r.watchdog;
    EXPECT_GT(r.outcomes.count(outcome::unfinished), 0u) << open_loop;
    EXPECT_EQ(r.outcomes.errors().at("unfinished"), r.outcomes.count(outcome::unfinished));
    EXPECT_EQ(r.outcomes.total(), open_loop ? r.planned : r.issued) << open_loop;
    EXPECT_EQ(client.unanswered(), 0u) << open_loop;
  }
}

// The sums of a timeline's columns, over every interval.
struct timeline_sums {
  std::uint64_t completed = 0, ok = 0, due = 0, sent = 0, late = 0, reconnects = 0, timed = 0;
  explicit timeline_sums(const timeline& t) {
    for (const timeline_interval& row : t.intervals()) {
      completed += row.completed();
      ok += row.ok();
      due += row.due;
      sent += row.sent;
      late += row.late;
      reconnects += row.reconnects;
      for (const auto& b : row.latency) timed += b.count;
    }
  }
};

load_spec closed_with_no_warmup(std::size_t workers, std::chrono::milliseconds duration,
                                std::chrono::milliseconds interval) {
  load_spec s = closed(workers, duration);
  s.warmup = 0ms;
  s.interval = interval;
  return s;
}

TEST(Timeline, AClosedLoopsTimelineHoldsEveryCallWarmUpAndDrainIncluded) {
  fake_client client(1ms);
  load_spec s = closed(4, 200ms);
  s.interval = 50ms;
  const load_result r = run_load(client, s);
  const timeline_sums sums(r.calls_over_time);
  EXPECT_EQ(r.calls_over_time.interval(), 50ms);
  EXPECT_EQ(sums.completed, client.calls());
  EXPECT_EQ(sums.ok, client.calls());
  EXPECT_EQ(sums.timed, sums.ok) << "every success has its latency in its interval";
  EXPECT_EQ(sums.due, 0u) << "a closed loop has no schedule";
  EXPECT_GE(r.calls_over_time.size(), 4u);  // 20 ms of warm-up and 200 ms of window
  EXPECT_LE(r.calls_over_time.size(), 7u);
  for (std::size_t k = 0; k + 1 < r.calls_over_time.size(); ++k) {
    EXPECT_GT(r.calls_over_time.intervals()[k].ok(), 0u) << k;
    EXPECT_GE(r.calls_over_time.percentile(k, 50), 1'000'000u * 31 / 32) << k;
  }
  EXPECT_GT(r.start_unix, 0);
  EXPECT_GE(r.window_start_unix, r.start_unix + 0.02 * 0.9);
  // The span ends with the last call, in the last interval.
  EXPECT_GE(r.calls_over_time.span(), 220ms);
  EXPECT_GT(r.calls_over_time.span(), 50ms * static_cast<int>(r.calls_over_time.size() - 1));
  EXPECT_LE(r.calls_over_time.span(), 50ms * static_cast<int>(r.calls_over_time.size()));
}

TEST(Timeline, AnOpenLoopsTimelineShowsWhatWasDueSentLateAndCompleted) {
  // 200 calls/s, one in flight, 20 ms each: the loop can do 50/s, so sends fall behind the
  // schedule interval by interval, and the late ones show where they went out.
  fake_client client(20ms);
  load_spec s = open(arrival_kind::uniform, 200, 1, 200ms);
  s.interval = 50ms;
  const load_result r = run_load(client, s);
  const timeline_sums sums(r.calls_over_time);
  EXPECT_EQ(sums.due, r.planned);
  EXPECT_EQ(sums.sent, client.calls());
  EXPECT_EQ(sums.completed, r.outcomes.total());
  EXPECT_EQ(sums.late, r.late);
  const auto& rows = r.calls_over_time.intervals();
  ASSERT_GE(rows.size(), 4u);
  for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(rows[k].due, 10u) << k;  // 200/s in 50 ms
  EXPECT_LE(rows[1].sent, 3u) << "at most 50/s go out";
  EXPECT_GT(rows.size(), 4u) << "calls due in the window completed long after it";
}

TEST(Timeline, AServerThatFailsHalfWayShowsTheFallInTheTimeline) {
  // Calls succeed for 150 ms, then every one fails as if the server had gone.
  const auto fails_from = std::chrono::steady_clock::now() + 150ms;
  fake_client client(2ms, [&](std::uint64_t) -> fake_answer {
    if (std::chrono::steady_clock::now() < fails_from) return {};
    return {errc::connection_closed, {}};
  });
  const load_result r = run_load(client, closed_with_no_warmup(2, 300ms, 50ms));
  const auto& rows = r.calls_over_time.intervals();
  ASSERT_GE(rows.size(), 6u);
  auto closed_in = [&](std::size_t k) {
    return rows[k].outcomes[static_cast<std::size_t>(outcome::connection_closed)];
  };
  EXPECT_GT(rows[0].ok(), 0u);
  EXPECT_EQ(closed_in(0), 0u);
  EXPECT_EQ(rows[4].ok(), 0u);
  EXPECT_GT(closed_in(4), 0u);
  EXPECT_EQ(timeline_sums(r.calls_over_time).completed, client.calls());
}

TEST(Timeline, TheClientsReDialsLandInTheIntervalTheyHappenedIn) {
  fake_client client(1ms);
  const auto redial_at = std::chrono::steady_clock::now() + 120ms;
  std::atomic<bool> done{false};
  client.on_call = [&](std::string_view) {
    if (!done && std::chrono::steady_clock::now() >= redial_at && !done.exchange(true))
      client.reconnects += 2;
  };
  const load_result r = run_load(client, closed_with_no_warmup(1, 300ms, 100ms));
  const auto& rows = r.calls_over_time.intervals();
  ASSERT_GE(rows.size(), 3u);
  EXPECT_EQ(timeline_sums(r.calls_over_time).reconnects, 2u);
  std::size_t seen_in = 0;
  while (seen_in < rows.size() && rows[seen_in].reconnects == 0) ++seen_in;
  // Sampled within a tick (50 ms) of 120 ms: interval 1, or 2 on a machine that slow.
  EXPECT_GE(seen_in, 1u) << "never before they happened";
  EXPECT_LE(seen_in, 2u);
}

TEST(LoadDriver, RejectsSpecsThatCannotRun) {
  fake_client client;
  EXPECT_THROW(run_load(client, closed(0, 10ms)), std::invalid_argument);
  EXPECT_THROW(run_load(client, open(arrival_kind::uniform, 10, 0, 10ms)), std::invalid_argument);
  EXPECT_THROW(run_open_loop(client, closed(1, 10ms)), std::invalid_argument);
  EXPECT_THROW(run_load(client, open(arrival_kind::uniform, 0, 1, 10ms)), std::invalid_argument);
}

TEST(GreetName, IsDistinctPerWorkerAndPaddedToThePayload) {
  EXPECT_EQ(greet_name(3, 8), "w3-xxxxx");
  EXPECT_EQ(greet_name(12, 1), "w12-");  // never shorter than what makes it distinct
  EXPECT_NE(greet_name(1, 16), greet_name(2, 16));
  EXPECT_EQ(greet_name(1, 1000).size(), 1000u);
}

}  // namespace
}  // namespace wirebench
