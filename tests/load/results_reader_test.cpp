// Reading a results file back: everything results_json() writes comes back (the file written
// again is the same file), format 2's one request per point is read as a list of one, and what is
// not a results file is refused with where and why.
#include "support/user_calls.hpp"
#include "wirebench/load/results_reader.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "started_run.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

run_record run_to_read() {
  run_record run = test::started_run("wirebench run --protocol http1 --url http://h/x",
                                     "2026-11-23T10:00:00Z", {{"grpc", "1.51.1"}, {"nghttp2", "1.52.0"}});
  for (int p = 0; p < 2; ++p) {
    point_result point;
    point.parameters.protocol = p == 0 ? "http1" : "resp";
    point.parameters.workers = 4;
    point.parameters.connections = 4;
    point.parameters.server_local = p == 0;
    point.parameters.calls = p == 1 ? 5000 : 0;  // -n on the second point
    user_call call;
    if (p == 0) {
      call.request = http_call{"POST", "/x?k=__rand_int__", "h", false, {{"a", "b"}}, "body", 201,
                               std::string("ok")};
      point.parameters.requests = {call};
    } else {  // a mix of two
      call.request = resp_call{{"SET", "k", "v"}, std::nullopt};
      call.keyspace = 42;
      call.weight = 3;
      call.name = "set";
      user_call get{resp_call{{"GET", "k"}, std::string("v")}};
      point.parameters.requests = {call, get};
    }
    for (int r = 0; r < 2; ++r) {
      repeat_result rep;
      for (std::uint64_t i = 1; i <= 500; ++i) {
        rep.load.latency.record(i * 997 + static_cast<std::uint64_t>(r));
        rep.load.actual_latency.record(i * 13);
        rep.load.outcomes.add({});
      }
      rep.load.latency.record(latency_histogram::highest_trackable_ns + 5);  // saturated
      rep.load.outcomes.add(errc::timeout);
      rep.load.outcomes.add(errc::remote_error, "ERR unknown command 'FOO'");
      rep.load.window_seconds = 1.25;
      rep.load.window_start_unix = 1'795'000'000.5 + r;
      rep.client_cpu = {0.5, 0.25};
      if (p == 0) rep.server_cpu = cpu_time{0.125, 0.0625};
      rep.client.reconnects = 3;
      // A timeline: calls over three intervals, a failure, a re-dial; an open loop's arrivals.
      timeline_recorder over_time(std::chrono::milliseconds(100));
      for (std::uint64_t i = 0; i < 30; ++i)
        over_time.completed(i * 10'000'000, i == 17 ? make_error_code(errc::timeout) : std::error_code{},
                            50'000 + i * 1'000);
      if (p == 1) over_time.scheduled(250'000'000, true, 260'000'000, true);
      rep.load.calls_over_time = over_time.result();
      rep.load.calls_over_time.at(2).reconnects = 1;
      rep.load.calls_over_time.set_span(std::chrono::milliseconds(295));
      rep.load.start_unix = rep.load.window_start_unix - 0.5;
      if (p == 1 && r == 1) rep.load.gave_up = "the time cap (3s) passed before all 5000 calls were made";
      if (p == 1) {  // each request of the mix: a share of the calls, one with a failure
        rep.load.per_request.resize(2);
        for (std::uint64_t i = 1; i <= 400; ++i) {
          rep.load.per_request[i % 4 == 0 ? 1 : 0].latency.record(i * 997);
          rep.load.per_request[i % 4 == 0 ? 1 : 0].outcomes.add({});
        }
        rep.load.per_request[1].outcomes.add(errc::wrong_reply, "nope");
        rep.load.per_request[1].late = 2;
      }
      point.repeats.push_back(rep);
    }
    point.summary = summarize(point.repeats, {1, 2});
    run.points.push_back(point);
  }
  run.knees.push_back({"resp", "uniform", 4, "p99<=1ms", 1000, 2000, "p99 1.5ms > 1ms", "",
                       {{1000, "", 0}, {2000, "p99 1.5ms > 1ms", 1}}});
  // An echo table's cells: one of our client's (its point), one measured by connect-go's own
  // client (no point), one the server does not speak.
  run.echo.push_back({"ours", "grpc", "unix:@e", "Get", 1, {101.5, 99.25}, {9852, 10075}, 2000, 0, 0, ""});
  run.echo.push_back({"connect-go", "connect-go/grpc", "tcp://127.0.0.1:9", "Update", 1, {310.0}, {3225.8}, 100,
                      3, std::nullopt, ""});
  run.echo.push_back({"grpc-go", "connect", "tcp", "Get", 1, {}, {}, 0, 0, std::nullopt, "grpc-go serves gRPC only"});
  return run;
}

TEST(results_reader, reads_back_everything_that_was_written) {
  const std::string written = results_json(run_to_read());
  const run_record read = read_results_json(written);
  EXPECT_EQ(results_json(read), written);
  ASSERT_EQ(read.points.size(), 2u);
  EXPECT_EQ(read.points[0].repeats[1].load.latency.nonempty_buckets(),
            run_to_read().points[0].repeats[1].load.latency.nonempty_buckets());
  EXPECT_EQ(read.points[1].parameters.requests, run_to_read().points[1].parameters.requests);
  ASSERT_EQ(read.points[1].repeats[0].load.per_request.size(), 2u);
  EXPECT_EQ(read.points[1].repeats[0].load.per_request[1].latency.nonempty_buckets(),
            run_to_read().points[1].repeats[0].load.per_request[1].latency.nonempty_buckets());
  EXPECT_EQ(read.points[1].repeats[0].load.per_request[1].outcomes.count(outcome::wrong_reply), 1u);
  ASSERT_EQ(read.points[1].summary.requests.size(), 2u);
  EXPECT_EQ(read.points[1].summary.requests[1].late, 4u);
  EXPECT_NEAR(read.points[1].summary.requests[0].share, 600.0 / 802, 1e-9);
  EXPECT_TRUE(read.points[0].summary.requests.empty());
  const timeline& t = read.points[1].repeats[0].load.calls_over_time;
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t.interval(), std::chrono::milliseconds(100));
  EXPECT_EQ(t.span(), std::chrono::milliseconds(295));
  EXPECT_EQ(t.intervals()[1].completed(), 10u);
  EXPECT_EQ(t.intervals()[1].ok(), 9u);
  EXPECT_EQ(t.intervals()[2].reconnects, 1u);
  EXPECT_EQ(t.intervals()[2].late, 1u);
  EXPECT_EQ(t.intervals()[2].latency, run_to_read().points[1].repeats[0].load.calls_over_time.intervals()[2].latency);
  EXPECT_EQ(read.points[1].repeats[0].load.start_unix, 1'795'000'000.0);
  ASSERT_EQ(read.points[0].summary.outcomes.samples().size(), 1u);
  EXPECT_EQ(read.points[0].summary.outcomes.samples()[0].text, "ERR unknown command 'FOO'");
  ASSERT_EQ(read.knees.size(), 1u);
  EXPECT_EQ(read.knees[0].steps[1].violation, "p99 1.5ms > 1ms");
  ASSERT_EQ(read.echo.size(), 3u);
  EXPECT_EQ(read.echo[0].point, 0u);
  EXPECT_EQ(read.echo[0].mean_us, (std::vector<double>{101.5, 99.25}));
  EXPECT_EQ(read.echo[1].point, std::nullopt);
  EXPECT_EQ(read.echo[1].failed, 3u);
  EXPECT_EQ(read.echo[2].skipped, "grpc-go serves gRPC only");
  EXPECT_EQ(read.points[0].parameters.calls, 0u);
  EXPECT_EQ(read.points[1].parameters.calls, 5000u);
  EXPECT_EQ(read.points[1].repeats[1].load.gave_up, run_to_read().points[1].repeats[1].load.gave_up);
}

TEST(results_reader, reads_format_2s_one_request_as_a_list_of_one) {
  auto doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["format"] = "wirebench-results-2";
  for (auto& point : doc["points"]) {
    auto& params = point["parameters"];
    params["request"] = params["requests"].empty() ? nlohmann::json(nullptr) : params["requests"][0];
    params["request"].erase("weight");
    params["request"].erase("name");
    params.erase("requests");
    point["summary"].erase("requests");
    for (auto& rep : point["repeats"]) rep.erase("requests");
  }
  const run_record read = read_results_json(doc.dump());
  ASSERT_EQ(read.points[0].parameters.requests.size(), 1u);
  EXPECT_EQ(read.points[0].parameters.requests[0], run_to_read().points[0].parameters.requests[0]);
  ASSERT_EQ(read.points[1].parameters.requests.size(), 1u);
  EXPECT_EQ(read.points[1].parameters.requests[0].weight, 1u);  // what format 2 had none of
  EXPECT_TRUE(read.points[1].summary.requests.empty());
}

TEST(results_reader, refuses_what_is_not_a_results_file) {
  auto reason = [](const std::string& text) {
    try {
      read_results_json(text);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(reason("{"), "not JSON");
  EXPECT_EQ(reason("[]"), "not a wirebench results file (no \"format\")");
  EXPECT_NE(reason(R"({"format": "wirebench-results-1"})").find("no latency histograms"),
            std::string::npos);

  auto doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["points"][1]["repeats"][0].erase("latency_histogram");
  EXPECT_EQ(reason(doc.dump()), "file.points[1].repeats[0] has no 'latency_histogram'");

  doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["points"][0]["repeats"][1]["latency_histogram"]["count"] = 7;
  EXPECT_EQ(reason(doc.dump()),
            "file.points[0].repeats[1].latency_histogram is not a consistent histogram");

  doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["points"][0]["parameters"]["workers"] = "four";
  EXPECT_EQ(reason(doc.dump()), "file.points[0].parameters.workers is not a whole number >= 0");
  doc["points"][0]["parameters"]["workers"] = -1;  // not 2^64 - 1
  EXPECT_EQ(reason(doc.dump()), "file.points[0].parameters.workers is not a whole number >= 0");

  doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["echo"][1]["point"] = 2;  // the file has two
  EXPECT_EQ(reason(doc.dump()), "file.echo[1].point names no point (the file has 2)");
  doc["echo"][1]["point"] = nullptr;
  doc["echo"][0]["mean_us"][1] = "fast";
  EXPECT_EQ(reason(doc.dump()), "file.echo[0].mean_us[1] has the wrong type (string)");

  doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["points"][0]["repeats"][0]["timeline"]["reconnects"].push_back(0);
  EXPECT_EQ(reason(doc.dump()),
            "file.points[0].repeats[0].timeline.reconnects has 4 intervals, 'ok' 3");
  doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["points"][0]["repeats"][0]["timeline"]["ok"][0] = 11;
  EXPECT_EQ(reason(doc.dump()),
            "file.points[0].repeats[0].timeline.latency_buckets[0] counts 10 calls, 'ok' 11");
  doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["points"][0]["repeats"][0]["timeline"]["latency_buckets"][0][0] = 50'001;
  EXPECT_EQ(reason(doc.dump()),
            "file.points[0].repeats[0].timeline.latency_buckets[0] is not a histogram's buckets in order");
  doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["points"][0]["repeats"][0].erase("timeline");
  EXPECT_EQ(reason(doc.dump()), "accepted") << "files from before timelines have none";

  doc = nlohmann::json::parse(results_json(run_to_read()));
  doc["points"][0]["parameters"]["protocol"] = 7;
  EXPECT_EQ(reason(doc.dump()), "file.points[0].parameters.protocol has the wrong type (number)");
}

}  // namespace
}  // namespace wirebench
