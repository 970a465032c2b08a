// What `wirebench report` puts in its page: the percentile spectrum, points grouped by their load
// with their timelines, knees with their targets, the before/after verdicts judged against the
// repeats' spread, and a page that holds everything and lets no text end its script early.
#include "report_data.hpp"

#include <gtest/gtest.h>

#include "report_page.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::app {
namespace {

using nlohmann::json;

TEST(report_data, the_spectrum_climbs_five_steps_a_halving_to_the_max) {
  latency_histogram h;
  for (std::uint64_t v = 1; v <= 1000; ++v) h.record(v * 1000);  // 1 us .. 1 ms
  const json s = percentile_spectrum(h);
  ASSERT_GE(s.size(), 10u);
  EXPECT_DOUBLE_EQ(s[0][0].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(s[5][0].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(s[10][0].get<double>(), 75.0);
  // Steps stop where 1/(1-q) would pass the 1000 values: the last below 100 is under 99.9%.
  EXPECT_LE(s[s.size() - 2][0].get<double>(), 99.9);
  EXPECT_DOUBLE_EQ(s.back()[0].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(s.back()[1].get<double>(), 1000.0);
  for (std::size_t k = 1; k < s.size(); ++k)
    EXPECT_GE(s[k][1].get<double>(), s[k - 1][1].get<double>()) << k;
  EXPECT_TRUE(percentile_spectrum(latency_histogram{}).empty());
}

// A repeat at about `rps` calls/s whose calls took `latency_us` each, over one second.
repeat_result repeat(double rps, std::uint64_t latency_us, double client_cpu) {
  repeat_result r;
  const auto calls = static_cast<std::uint64_t>(rps);
  for (std::uint64_t i = 0; i < calls; ++i) {
    r.load.latency.record(latency_us * 1000);
    r.load.actual_latency.record(latency_us * 1000);
    r.load.outcomes.add({});
  }
  r.load.window_seconds = 1;
  r.load.window_start_unix = 1'795'000'000.3;
  r.load.start_unix = 1'795'000'000;
  timeline_recorder t(std::chrono::milliseconds(100));
  t.completed(50'000'000, {}, latency_us * 1000);
  t.completed(350'000'000, errc::connection_closed, 0);
  r.load.calls_over_time = t.result();
  r.load.calls_over_time.set_span(std::chrono::milliseconds(380));
  r.client_cpu = {client_cpu, 0};
  return r;
}

run_record one_run(const std::string& protocol, std::vector<repeat_result> repeats) {
  run_record run;
  run.command_line = "wirebench run -p " + protocol;
  point_result p;
  p.parameters.protocol = protocol;
  p.parameters.workers = 8;
  p.repeats = std::move(repeats);
  p.summary = summarize(p.repeats, {1, 2});
  run.points.push_back(p);
  return run;
}

TEST(report_data, points_carry_their_group_summary_spectrum_and_timeline) {
  const json d = report_data({{"a.json", one_run("mux", {repeat(1000, 50, 0.02)})}});
  ASSERT_EQ(d["points"].size(), 1u);
  const json& p = d["points"][0];
  EXPECT_EQ(p["label"], "mux");
  EXPECT_EQ(p["group"], "closed loop, 8 workers");
  EXPECT_EQ(p["summary"]["outcomes"]["ok"], 1000u);
  EXPECT_FALSE(p["spectrum"].empty());
  EXPECT_FALSE(p.contains("actual_spectrum")) << "a closed loop's is the same";
  const json& t = p["repeats"][0]["timeline"];
  EXPECT_EQ(t["ok"], json::array({1, 0, 0, 0}));
  EXPECT_EQ(t["failed"]["connection_closed"], json::array({0, 0, 0, 1}));
  EXPECT_EQ(t["span_ns"], 380'000'000u);
  EXPECT_FALSE(t.contains("latency_buckets")) << "the page does not draw them";
  EXPECT_FALSE(p["repeats"][0].contains("latency_histogram")) << "the spectrum stands for it";
  EXPECT_TRUE(d["comparison"].empty()) << "one file: nothing to compare";
}

TEST(report_data, two_files_compare_their_shared_points_against_the_repeats_spread) {
  const run_record before = one_run("mux", {repeat(1000, 50, 0.02), repeat(1010, 50, 0.02),
                                            repeat(990, 51, 0.02)});
  const run_record after = one_run("mux", {repeat(2000, 50, 0.02), repeat(2020, 51, 0.02),
                                           repeat(1980, 50, 0.02)});
  const json d = report_data({{"before.json", before}, {"after.json", after}});
  ASSERT_EQ(d["comparison"].size(), 1u);
  std::map<std::string, std::string> verdicts;
  for (const json& f : d["comparison"][0]["figures"]) verdicts[f["figure"]] = f["verdict"];
  EXPECT_EQ(verdicts["calls/s"], "better");
  EXPECT_EQ(verdicts["p50 us"], "same") << "50 and 51 us in both runs";
  EXPECT_EQ(verdicts["client cpu us/call"], "better") << "the same CPU over twice the calls";
  EXPECT_EQ(verdicts.count("server cpu us/call"), 0u) << "no server CPU was measured";
  EXPECT_EQ(d["points"][0]["label"], "mux [1]");
  // Run once, a point has no spread to judge a change by.
  const json once = report_data({{"before.json", one_run("mux", {repeat(1000, 50, 0.02)})},
                                 {"after.json", one_run("mux", {repeat(2000, 50, 0.02)})}});
  for (const json& f : once["comparison"][0]["figures"])
    EXPECT_EQ(f["verdict"], "one repeat: not judged") << f["figure"];
  // Points of another load are not compared.
  const json other = report_data({{"before.json", before}, {"b.json", one_run("line", {repeat(1000, 50, 0.02)})}});
  EXPECT_TRUE(other["comparison"].empty());
}

TEST(report_data, a_knee_carries_its_target_and_its_steps_points) {
  run_record run = one_run("line", {repeat(1000, 50, 0.02)});
  run.points.push_back(run.points[0]);
  run.knees.push_back({"line", "uniform", 64, "p99<=1ms,p50<=200us", 1000, 2000, "p99 1.5ms > 1ms", "",
                       {{1000, "", 0}, {2000, "p99 1.5ms > 1ms", 1}}});
  const json d = report_data({{"a.json", run}, {"b.json", run}});
  ASSERT_EQ(d["knees"].size(), 2u);
  EXPECT_EQ(d["knees"][1]["steps"][1]["point"], 3u) << "numbered among every file's points";
  EXPECT_FALSE(d["knees"][1]["steps"][1]["met"]);
  ASSERT_EQ(d["knees"][0]["limits"].size(), 2u);
  EXPECT_DOUBLE_EQ(d["knees"][0]["limits"][0]["at_most_us"].get<double>(), 1000.0);
}

TEST(report_data, a_google_benchmark_case_stands_by_its_median_or_its_one_run) {
  const json doc = json::parse(R"({"context": {"num_cpus": 2, "secret": "x"}, "benchmarks": [
    {"run_name": "a/workers:1/real_time", "run_type": "iteration", "real_time": 9},
    {"run_name": "a/workers:1/real_time", "run_type": "aggregate", "aggregate_name": "mean", "real_time": 5},
    {"run_name": "a/workers:1/real_time", "run_type": "aggregate", "aggregate_name": "median", "real_time": 4},
    {"run_name": "b/encode", "run_type": "iteration", "real_time": 7}]})");
  const json d = report_data({}, {{"micro.json", doc}});
  ASSERT_EQ(d["benchmarks"].size(), 1u);
  const json& rows = d["benchmarks"][0]["rows"];
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["case"], "a/workers:1");
  EXPECT_EQ(rows[0]["real_time"], 4);
  EXPECT_EQ(rows[1]["case"], "b/encode");
  EXPECT_EQ(d["benchmarks"][0]["context"], json({{"num_cpus", 2}}));
}

TEST(report_page, holds_its_data_and_no_text_can_end_its_script) {
  run_record run = one_run("line", {repeat(10, 50, 0.02)});
  run.command_line = "wirebench run </script><script>alert(1)</script>";
  const std::string page = report_page(report_data({{"a.json", run}}), "a <b> & \"c\"");
  EXPECT_EQ(page.find("alert(1)</script>"), std::string::npos);
  EXPECT_NE(page.find("\\u003c/script>\\u003cscript>alert(1)"), std::string::npos);
  EXPECT_NE(page.find("<title>a &lt;b&gt; &amp; &quot;c&quot;</title>"), std::string::npos);
  // Everything inline: no script or style is fetched from anywhere.
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_NE(page.find("Chart.js v"), std::string::npos) << "Chart.js inlined, its licence banner kept";
  EXPECT_NE(page.find("data-charts"), std::string::npos) << "report.js inlined";
}

}  // namespace
}  // namespace wirebench::app
