// What `wirebench run` leaves behind, as a user meets it: a results file is never emptied or
// truncated by a run that measured nothing; SIGINT in the middle of a sweep writes and prints the
// points finished, marked incomplete; --check turns a missed target into exit status 3.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sys/stat.h>
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
  // The first point whole; the second with the calls its repeat finished, marked; no third.
  ASSERT_EQ(results["points"].size(), 2u);
  EXPECT_EQ(results["points"][0]["parameters"]["workers"], 1u);
  EXPECT_EQ(results["points"][0]["repeats"][0]["gave_up"], "");
  EXPECT_EQ(results["points"][1]["parameters"]["workers"], 2u);
  EXPECT_EQ(results["points"][1]["repeats"][0]["gave_up"], "interrupted");
  EXPECT_GT(results["points"][1]["summary"]["outcomes"]["ok"].get<std::uint64_t>(), 0u);
  EXPECT_NE(results["incomplete"].get<std::string>().find("interrupted by SIGINT"),
            std::string::npos);
  const std::string table = read_file(dir.path("stdout"));
  EXPECT_NE(table.find("line      closed  1"), std::string::npos) << table;
  EXPECT_NE(table.find("incomplete: interrupted by SIGINT"), std::string::npos) << table;
}

// A run of one point, as a user stops it with Ctrl-C half-way: what it measured until then is
// kept (the table, the results file), marked incomplete, not "no results".
TEST(run_results, sigint_in_a_single_point_keeps_the_calls_it_finished) {
  test::temp_dir dir("results-sigint-one");
  test::child_process p({WIREBENCH_CLI, "run", "-p", "line", "-w", "1", "--warmup", "0.1", "-D", "6", "-R", "1",
                         "-q", "-o", dir.path("r.json")},
                        dir.path("stdout"), dir.path("stderr"));
  std::this_thread::sleep_for(1500ms);
  ::kill(p.pid(), SIGINT);
  EXPECT_EQ(p.wait_for_exit(20s), 130) << read_file(dir.path("stderr"));
  const json results = json::parse(read_file(dir.path("r.json")));
  ASSERT_EQ(results["points"].size(), 1u);
  const json& repeat = results["points"][0]["repeats"][0];
  EXPECT_EQ(repeat["gave_up"], "interrupted");
  EXPECT_GT(repeat["outcomes"]["ok"].get<std::uint64_t>(), 0u);
  EXPECT_LT(repeat["window_seconds"].get<double>(), 5.0) << "the window ends at the signal";
  EXPECT_NE(results["incomplete"].get<std::string>().find("(the calls it finished are kept)"), std::string::npos);
  EXPECT_NE(read_file(dir.path("stdout")).find("line      closed"), std::string::npos) << read_file(dir.path("stdout"));
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
  // A floor on throughput, alone or beside a latency limit.
  EXPECT_EQ(run(dir, with("rps>=1")), 0) << read_file(dir.path("stderr"));
  EXPECT_EQ(run(dir, with("p50<=10s,rps>=1e12")), 3);
  EXPECT_NE(read_file(dir.path("stderr")).find("--check missed: line closed workers=1: rps "), std::string::npos)
      << read_file(dir.path("stderr"));
  EXPECT_EQ(run(dir, with("p50>=1ms")), 2) << "only calls/s has a floor";
}

// A run in which no call succeeded measured nothing: it says so and exits 3 without a --check
// (every call a 404 here; the table still shows the point, and why).
TEST(run_results, a_point_in_which_no_call_succeeded_fails_the_run) {
  test::temp_dir dir("results-none");
  EXPECT_EQ(run(dir, {"-p", "http1", "--request", "/nope", "-w", "1", "--warmup", "0.05", "-D", "0.2", "-R",
                      "1", "-q", "-o", dir.path("r.json")}),
            3);
  EXPECT_NE(read_file(dir.path("stderr")).find("no call succeeded: http1 closed workers=1: status_404="),
            std::string::npos)
      << read_file(dir.path("stderr"));
  // Its results are still written: they say what failed.
  EXPECT_EQ(json::parse(read_file(dir.path("r.json")))["points"].size(), 1u);
}

// A server wirebench did not start: its placement is not claimed.
TEST(run_results, a_remote_servers_threads_are_not_claimed) {
  test::temp_dir dir("results-remote");
  const std::string at = "unix:" + dir.path("line.sock");
  test::child_process server({WIREBENCH_CLI, "serve", "-p", "line", "--listen", at}, dir.path("serve.out"),
                             dir.path("serve.err"));
  for (int i = 0; i < 400 && !std::filesystem::exists(dir.path("line.sock")); ++i) std::this_thread::sleep_for(25ms);
  EXPECT_EQ(run(dir, {"-p", "line", "--connect", at, "-w", "1", "--warmup", "0.05", "-D", "0.2", "-R", "1", "-q"}), 0)
      << read_file(dir.path("stderr"));
  const std::string table = read_file(dir.path("stdout"));
  EXPECT_NE(table.find("placement: server not started by wirebench (its CPU unmeasured), client threads 1"),
            std::string::npos)
      << table;
}

// Results paths as a pipe or a user's links have them: "-" is stdout (the table then on stderr);
// a symlink is written through to its target and stays a link; a FIFO is written into, not
// replaced; report -o the same.
TEST(run_results, outputs_go_through_links_pipes_and_stdout_never_replacing_them) {
  test::temp_dir dir("results-paths");
  const std::vector<std::string> quick = {"-p", "line", "-w", "1", "--warmup", "0.05", "-D", "0.2", "-R", "1", "-q"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> args = quick;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  ASSERT_EQ(run(dir, with({"--out", "-"})), 0) << read_file(dir.path("stderr"));
  EXPECT_EQ(json::parse(read_file(dir.path("stdout")))["points"].size(), 1u) << "stdout is the JSON alone";
  EXPECT_NE(read_file(dir.path("stderr")).find("line      closed"), std::string::npos) << "the table on stderr";
  EXPECT_NE(read_file(dir.path("stderr")).find("results in stdout"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir.path("-"))) << "no file named -";

  std::filesystem::create_directory(dir.path("kept"));
  std::ofstream(dir.path("kept/real.json")) << "earlier";
  std::filesystem::create_symlink("kept/real.json", dir.path("link.json"));
  ASSERT_EQ(run(dir, with({"--out", dir.path("link.json")})), 0) << read_file(dir.path("stderr"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir.path("link.json")));
  EXPECT_EQ(json::parse(read_file(dir.path("kept/real.json")))["points"].size(), 1u);

  ASSERT_EQ(::mkfifo(dir.path("pipe").c_str(), 0600), 0);
  std::string piped;
  std::thread reader([&] { piped = read_file(dir.path("pipe")); });  // opens it, blocking, as a reader
  const int status = run(dir, with({"--out", dir.path("pipe")}));
  reader.join();
  EXPECT_EQ(status, 0) << read_file(dir.path("stderr"));
  EXPECT_EQ(json::parse(piped)["points"].size(), 1u);
  EXPECT_EQ(std::filesystem::status(dir.path("pipe")).type(), std::filesystem::file_type::fifo);
  EXPECT_FALSE(std::filesystem::exists(dir.path("pipe.csv"))) << "no CSV beside a pipe";

  std::filesystem::create_symlink("kept/page.html", dir.path("page-link.html"));
  test::child_process report({WIREBENCH_CLI, "report", dir.path("kept/real.json"), "-o", dir.path("page-link.html")},
                             dir.path("stdout"), dir.path("stderr"));
  EXPECT_EQ(report.wait_for_exit(30s), 0) << read_file(dir.path("stderr"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir.path("page-link.html")));
  EXPECT_NE(read_file(dir.path("kept/page.html")).find("<html"), std::string::npos);
}

}  // namespace
}  // namespace wirebench
