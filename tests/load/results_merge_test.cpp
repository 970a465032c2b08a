// Merging generators' results: histograms and outcomes add exactly (the merged percentiles are
// those of all samples together), rates and shapes sum, and inputs that are not one load at one
// time are refused with the reason.
#include "support/user_calls.hpp"
#include "wirebench/load/results_merge.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

// One generator's run: `samples` latencies (ns) per repeat, all successful but one timeout.
run_record generator(const std::string& host, const std::vector<std::uint64_t>& samples,
                     double window_start, double window_seconds = 2, std::size_t repeats = 1) {
  run_record run;
  run.command_line = "wirebench run -p mux --connect tcp://10.0.0.1:7000";
  run.started_at = "2026-11-23T10:00:0" + host.substr(host.size() - 1) + "Z";
  run.machine.hostname = host;
  point_result point;
  point.parameters.protocol = "mux";
  point.parameters.workers = 8;
  point.parameters.connections = 1;
  point.parameters.duration_seconds = window_seconds;
  point.parameters.server_local = false;
  for (std::size_t r = 0; r < repeats; ++r) {
    repeat_result rep;
    timeline_recorder over_time(std::chrono::milliseconds(100));
    std::uint64_t at = 0;  // sample k completes k intervals after the run's start
    for (std::uint64_t v : samples) {
      over_time.completed(at, {}, v);
      at += 100'000'000;
      rep.load.latency.record(v);
      rep.load.actual_latency.record(v);
      rep.load.outcomes.add({});
    }
    rep.load.outcomes.add(errc::timeout);
    rep.load.window_seconds = window_seconds;
    rep.load.window_start_unix = window_start + 10.0 * static_cast<double>(r);
    rep.load.calls_over_time = over_time.result();
    rep.load.start_unix = rep.load.window_start_unix;
    rep.client_cpu = {1.0, 0.5};
    rep.client.reconnects = 1;
    point.repeats.push_back(rep);
  }
  point.summary = summarize(point.repeats, {1, 2});
  run.points.push_back(point);
  return run;
}

std::string refusal(const std::vector<results_input>& inputs) {
  try {
    merge_results(inputs);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "merged";
}

TEST(results_merge, adds_histograms_outcomes_and_rates_of_generators_that_ran_together) {
  std::mt19937_64 random(3);
  std::lognormal_distribution<double> latency(10.5, 1.0);
  std::vector<std::uint64_t> a, b, all;
  for (int i = 0; i < 20000; ++i) {
    const auto v = static_cast<std::uint64_t>(latency(random));
    (i % 4 == 0 ? a : b).push_back(v);
    all.push_back(v);
  }
  const run_record merged = merge_results({{"a.json", generator("gen-1", a, 1000.0)},
                                           {"b.json", generator("gen-2", b, 1000.5)}});
  ASSERT_EQ(merged.points.size(), 1u);
  const point_result& p = merged.points[0];
  EXPECT_EQ(p.parameters.workers, 16u);
  EXPECT_EQ(p.parameters.connections, 2u);
  EXPECT_EQ(p.parameters.generators, 2u);
  ASSERT_EQ(p.repeats.size(), 1u);
  const repeat_result& r = p.repeats[0];

  latency_histogram whole;
  for (std::uint64_t v : all) whole.record(v);
  EXPECT_EQ(r.load.latency.nonempty_buckets(), whole.nonempty_buckets());
  EXPECT_EQ(p.summary.latency.p99, latency_quantiles::of(whole).p99);  // recomputed, not averaged
  EXPECT_EQ(r.load.outcomes.count(outcome::ok), all.size());
  EXPECT_EQ(r.load.outcomes.count(outcome::timeout), 2u);
  EXPECT_EQ(r.load.outcomes.errors().at("timeout"), 2u);
  EXPECT_EQ(r.client.reconnects, 2u);
  // Each rate over its own 2 s window, summed; the common window is the 1.5 s both ran.
  EXPECT_DOUBLE_EQ(r.load.requests_per_second(), (a.size() + b.size()) / 2.0);
  EXPECT_DOUBLE_EQ(r.load.window_seconds, 1.5);
  EXPECT_DOUBLE_EQ(r.load.window_start_unix, 1000.5);
  EXPECT_DOUBLE_EQ(r.client_cpu.total(), 3.0);
  EXPECT_FALSE(r.server_cpu.has_value());
  EXPECT_NE(p.summary.warning.find("ran together for only 75%"), std::string::npos);
  ASSERT_EQ(merged.merged_from.size(), 2u);
  EXPECT_EQ(merged.merged_from[1].file, "b.json");
  EXPECT_EQ(merged.merged_from[1].hostname, "gen-2");
}

TEST(results_merge, a_merged_file_merges_again_as_its_generators) {
  const std::vector<std::uint64_t> s = {1000, 2000, 3000};
  const run_record two = merge_results({{"a.json", generator("gen-1", s, 1000.0)},
                                        {"b.json", generator("gen-2", s, 1000.0)}});
  const run_record three =
      merge_results({{"ab.json", two}, {"c.json", generator("gen-3", s, 1000.0)}});
  EXPECT_EQ(three.points[0].parameters.generators, 3u);
  EXPECT_EQ(three.points[0].repeats[0].load.latency.count(), 9u);
  EXPECT_EQ(three.merged_from.size(), 3u);
  EXPECT_TRUE(three.points[0].summary.warning.empty());
}

TEST(results_merge, timelines_line_up_by_the_wall_clock_time_each_run_started) {
  const run_record merged = merge_results({{"a.json", generator("gen-1", {1000, 2000, 3000}, 1000.3)},
                                           {"b.json", generator("gen-2", {4000, 5000}, 1000.0)}});
  const load_result& r = merged.points[0].repeats[0].load;
  EXPECT_DOUBLE_EQ(r.start_unix, 1000.0) << "the earliest start";
  // gen-2's calls in intervals 0 and 1; gen-1's, started 300 ms later, in 3, 4 and 5.
  const timeline& t = r.calls_over_time;
  ASSERT_EQ(t.size(), 6u);
  const std::uint64_t want_max[] = {4000, 5000, 0, 1000, 2000, 3000};
  for (std::size_t k = 0; k < 6; ++k) {
    EXPECT_EQ(t.intervals()[k].ok(), k == 2 ? 0u : 1u) << k;
    EXPECT_EQ(t.intervals()[k].max_ns, want_max[k]) << k;
  }
}

TEST(results_merge, refuses_what_is_not_one_load_at_one_time) {
  const std::vector<std::uint64_t> s = {1000, 2000};
  const run_record a = generator("gen-1", s, 1000.0);
  EXPECT_EQ(refusal({{"a.json", a}}), "merge needs at least two results files");
  EXPECT_EQ(refusal({{"a.json", a}, {"again.json", a}}),
            "again.json holds the same run as a.json: a generator would count twice");
  const run_record ab = merge_results({{"a.json", a}, {"b.json", generator("gen-2", s, 1000.0)}});
  EXPECT_EQ(refusal({{"a.json", a}, {"ab.json", ab}}),
            "ab.json (a merged file) holds the same run as a.json: a generator would count twice");

  run_record own_server = generator("gen-2", s, 1000.0);
  own_server.points[0].parameters.server_local = true;
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", own_server}}),
            "b.json loaded a server it started itself: merge adds generators that loaded one "
            "server they were given");

  run_record twice = generator("gen-2", s, 1000.0);
  twice.points.push_back(twice.points[0]);
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", twice}}),
            "b.json holds the point mux closed workers=8 twice: which to merge with which is "
            "ambiguous");

  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", generator("gen-2", s, 1003.0)}}),
            "mux closed workers=8, repeat 1: the generators' measured windows do not overlap "
            "(they must run at the same time)");

  run_record other_shape = generator("gen-2", s, 1000.0);
  other_shape.points[0].parameters.workers = 16;
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", other_shape}}),
            "a.json's point mux closed workers=8 is not in b.json (same protocol, load, shape "
            "and request)");

  run_record other_call = generator("gen-2", s, 1000.0);
  other_call.points[0].parameters.requests = {user_call{resp_call{{"PING"}}}};
  EXPECT_NE(refusal({{"a.json", a}, {"b.json", other_call}}).find("is not in b.json"),
            std::string::npos);

  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", generator("gen-2", s, 1000.0, 2, 3)}}),
            "mux closed workers=8: b.json has 3 repeats, a.json 1");
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", generator("gen-2", s, 1000.0, 3)}}),
            "mux closed workers=8: the durations or call counts differ (a.json and b.json)");

  run_record search = generator("gen-2", s, 1000.0);
  search.knees.push_back({"mux", "uniform", 8, "p99<=1ms", 1000, 0, "", "", {{1000, "", 0}}});
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", search}}),
            "b.json is a rate search: each generator chose its own rates");

  run_record echo = generator("gen-2", s, 1000.0);
  echo.echo.push_back({"ours", "grpc", "unix:@e", "Get", 1, {100}, {10000}, 10, 0, 0, ""});
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", echo}}),
            "b.json is article 003's echo table: its servers were started by its run");

  run_record no_start = generator("gen-2", s, 1000.0);
  no_start.points[0].repeats[0].load.window_start_unix = 0;
  EXPECT_EQ(refusal({{"a.json", a}, {"b.json", no_start}}),
            "b.json: repeat 1 has no window start time");
}

}  // namespace
}  // namespace wirebench
