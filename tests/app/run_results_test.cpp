// What `wirebench run` leaves behind, as a user meets it: a results file is never emptied or
// truncated by a run that measured nothing; SIGINT in the middle of a sweep writes and prints the
// points finished, marked incomplete; --check turns a missed target into exit status 3.
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/child_process.hpp"
#include "support/read_file.hpp"
#include "support/temp_dir.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

using test::read_file;

// Runs `wirebench run ARGS...` to its end (at most `cap`); its exit status.
int run(const test::temp_dir& dir, std::vector<std::string> args,
        std::chrono::milliseconds cap = 60s) {
  args.insert(args.begin(), {WIREBENCH_CLI, "run"});
  test::child_process p(args, dir.path("stdout"), dir.path("stderr"));
  return p.wait_for_exit(cap);
}

TEST(run_results, a_run_that_measured_nothing_leaves_the_results_files_as_they_were) {
  test::temp_dir dir("results-kept");
  std::ofstream(dir.path("r.json")) << "earlier results";
  std::ofstream(dir.path("r.csv")) << "earlier csv";
  const std::string nowhere = "unix:" + dir.path("nobody.sock");
  EXPECT_EQ(run(dir, {"-p", "line", "--connect", nowhere, "-q", "-o", dir.path("r.json")}), 1);
  EXPECT_EQ(read_file(dir.path("r.json")), "earlier results");
  EXPECT_EQ(read_file(dir.path("r.csv")), "earlier csv");
  EXPECT_NE(read_file(dir.path("stderr")).find("left as it was"), std::string::npos);
  // And a new path is not made empty either: nothing is created before there are results.
  EXPECT_EQ(run(dir, {"-p", "line", "--connect", nowhere, "-q", "-o", dir.path("new.json")}), 1);
  EXPECT_FALSE(std::ifstream(dir.path("new.json")).good());
}

TEST(run_results, a_refused_merge_leaves_no_file_behind) {
  test::temp_dir dir("results-merge");
  std::ofstream(dir.path("a.json")) << "not results";
  std::ofstream(dir.path("b.json")) << "not results either";
  test::child_process merge({WIREBENCH_CLI, "merge", dir.path("a.json"), dir.path("b.json"), "-o",
                             dir.path("all.json")},
                            dir.path("stdout"), dir.path("stderr"));
  EXPECT_EQ(merge.wait_for_exit(20s), 1);
  EXPECT_FALSE(std::ifstream(dir.path("all.json")).good());
  EXPECT_FALSE(std::ifstream(dir.path("all.csv")).good());
}

TEST(run_results, sigint_mid_sweep_writes_and_prints_the_points_finished) {
  test::temp_dir dir("results-sigint");
  // Three points of 0.1 + 1 s; the signal lands in the second, once its progress line is out.
  test::child_process p({WIREBENCH_CLI, "run", "-p", "line", "-w", "1,2,3", "--warmup", "0.1",
                         "-D", "1", "-R", "1", "-o", dir.path("r.json")},
                        dir.path("stdout"), dir.path("stderr"));
  for (int i = 0; i < 2000; ++i) {
    if (read_file(dir.path("stderr")).find("[2/3]") != std::string::npos) break;
    std::this_thread::sleep_for(5ms);
  }
  std::this_thread::sleep_for(200ms);
  ::kill(p.pid(), SIGINT);
  EXPECT_EQ(p.wait_for_exit(20s), 130) << read_file(dir.path("stderr"));
  const json results = json::parse(read_file(dir.path("r.json")));
  ASSERT_EQ(results["points"].size(), 1u);
  EXPECT_EQ(results["points"][0]["parameters"]["workers"], 1u);
  EXPECT_NE(results["incomplete"].get<std::string>().find("interrupted by SIGINT"),
            std::string::npos);
  const std::string table = read_file(dir.path("stdout"));
  EXPECT_NE(table.find("line      closed  1"), std::string::npos) << table;
  EXPECT_NE(table.find("incomplete: interrupted by SIGINT"), std::string::npos) << table;
}

TEST(run_results, check_exits_3_naming_the_point_and_the_figure_missed) {
  test::temp_dir dir("results-check");
  const std::vector<std::string> quick = {"-p", "line", "-w", "1", "--warmup", "0.05", "-D", "0.2",
                                          "-R", "1", "-q"};
  auto with = [&](const std::string& check) {
    std::vector<std::string> args = quick;
    args.insert(args.end(), {"--check", check});
    return args;
  };
  EXPECT_EQ(run(dir, with("p50<=10s")), 0) << read_file(dir.path("stderr"));
  EXPECT_EQ(run(dir, with("p50<=1ns")), 3);
  const std::string err = read_file(dir.path("stderr"));
  EXPECT_NE(err.find("--check missed: line closed workers=1: p50 "), std::string::npos) << err;
  EXPECT_EQ(run(dir, with("p50<=fast")), 2) << "a target it cannot read is a usage error";
}

}  // namespace
}  // namespace wirebench
