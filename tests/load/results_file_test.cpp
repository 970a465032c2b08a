// The results files: JSON that carries the machine, the libraries, every parameter and each
// repeat; CSV with the documented columns, one row per point, quoted where it must be.
#include "wirebench/load/results_file.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "started_run.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

run_record sample_run() {
  run_record run = test::started_run("wirebench run --protocol line", "2026-11-21T10:00:00Z",
                                     {{"nghttp2", "1.52.0"}, {"grpc", "1.51.1"}});
  run.machine.cpu_model = "Test CPU, 2 cores \"fast\"";  // a comma and quotes, for the CSV
  point_result point;
  point.parameters.protocol = "line";
  point.parameters.load = "uniform";
  point.parameters.rate = 1000;
  point.parameters.workers = 8;
  for (int r = 0; r < 2; ++r) {
    repeat_result rep;
    for (int i = 0; i < 100; ++i) {
      rep.load.latency.record(50'000);
      rep.load.actual_latency.record(40'000);
      rep.load.outcomes.add({});
    }
    rep.load.outcomes.add(errc::connection_closed);
    rep.load.late = 3;
    rep.load.planned = 101;
    rep.load.window_seconds = 0.1;
    rep.client_cpu = {0.01, 0.02};
    rep.client.late_replies = 1;
    if (r == 0) rep.server_cpu = cpu_time{0.03, 0.01};
    point.repeats.push_back(rep);
  }
  point.summary = summarize(point.repeats, {2, 2});
  run.points.push_back(point);
  return run;
}

TEST(ResultsJson, CarriesMachineLibrariesParametersRepeatsAndSummary) {
  const auto doc = nlohmann::json::parse(results_json(sample_run()));
  EXPECT_EQ(doc["format"], "wirebench-results-3");
  EXPECT_EQ(doc["command"], "wirebench run --protocol line");
  EXPECT_EQ(doc["machine"]["cpu_model"], "Test CPU, 2 cores \"fast\"");
  EXPECT_GT(doc["machine"]["online_cpus"].get<int>(), 0);
  EXPECT_FALSE(doc["machine"]["kernel"].get<std::string>().empty());
  EXPECT_EQ(doc["libraries"]["nghttp2"], "1.52.0");
  ASSERT_EQ(doc["points"].size(), 1u);
  const auto& p = doc["points"][0];
  EXPECT_EQ(p["parameters"]["protocol"], "line");
  EXPECT_EQ(p["parameters"]["load"], "uniform");
  EXPECT_EQ(p["parameters"]["rate"], 1000);
  EXPECT_EQ(p["parameters"]["server_cpus"], "any");
  EXPECT_EQ(p["summary"]["requests_per_second"]["median"], 1000);
  EXPECT_EQ(p["summary"]["outcomes"]["ok"], 200);
  EXPECT_EQ(p["summary"]["outcomes"]["connection_closed"], 2);
  EXPECT_EQ(p["summary"]["errors"]["connection_closed"], 2);
  EXPECT_EQ(p["summary"]["late"], 6);
  EXPECT_EQ(p["summary"]["late_replies"], 2);
  EXPECT_EQ(p["repeats"][0]["late_replies"], 1);
  EXPECT_NEAR(p["summary"]["latency_us"]["p50"].get<double>(), 50, 0.1);
  EXPECT_NEAR(p["summary"]["actual_latency_us"]["p99"].get<double>(), 40, 0.1);
  // Only one repeat had a server figure: no server summary rather than half of one.
  EXPECT_TRUE(p["summary"]["server_cpu_us_per_call"].is_null());
  ASSERT_EQ(p["repeats"].size(), 2u);
  EXPECT_NEAR(p["repeats"][0]["server_cpu"]["user_seconds"].get<double>(), 0.03, 1e-12);
  EXPECT_TRUE(p["repeats"][1]["server_cpu"].is_null());
}

TEST(ResultsCsv, HasTheDocumentedColumnsAndOneRowPerPoint) {
  const std::string csv = results_csv(sample_run());
  std::istringstream in(csv);
  std::string header, row, extra;
  ASSERT_TRUE(std::getline(in, header));
  ASSERT_TRUE(std::getline(in, row));
  EXPECT_FALSE(std::getline(in, extra));
  std::string expected;
  for (const auto& c : results_csv_columns()) expected += (expected.empty() ? "" : ",") + c;
  EXPECT_EQ(header, expected);
  EXPECT_TRUE(row.starts_with("line,uniform,8,"));
  // The CPU model holds a comma and quotes: quoted, quotes doubled.
  EXPECT_NE(row.find("\"Test CPU, 2 cores \"\"fast\"\"\""), std::string::npos);
}

TEST(MachineInfo, DescribesThisMachine) {
  const machine_info m = describe_machine();
  EXPECT_GT(m.online_cpus, 0u);
  EXPECT_GT(m.available_cpus, 0u);
  EXPECT_LE(m.available_cpus, m.online_cpus);
  EXPECT_NE(m.kernel.find("Linux"), std::string::npos);
  EXPECT_FALSE(m.cpu_model.empty());
  EXPECT_FALSE(m.compiler.empty());
}

}  // namespace
}  // namespace wirebench
