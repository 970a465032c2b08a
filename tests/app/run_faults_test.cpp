// `wirebench run` as a user runs it, against a server that fails under it: killed (-9) or stopped
// (SIGTERM) in the middle of the measured window, never listening, or listening and never
// answering (its connections wait in the listen queue, never accepted). For every protocol, in
// the closed and the open loop, each timed (--duration) and counted (-n), each in stages
// (--stages: the open loop's rate, the closed loop's workers), and, for the protocols that send
// mixes, each loop with a mix of requests: the run ends within its bound (warm-up +
// window + call timeout + 2 s, a few seconds at most when nobody listens), and every call it
// planned or issued is counted once, in exactly one outcome (a mix's, under one request too).
#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/user_calls.hpp"
#include "../../src/app/serve_command_line.hpp"
#include "support/child_process.hpp"
#include "support/port_had_a_connection.hpp"
#include "support/port_listeners.hpp"
#include "support/loopback_listen.hpp"
#include "support/read_file.hpp"
#include "support/temp_dir.hpp"
#include "wirebench/load/server_process.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

enum class fault { killed, stopped, never_listening, never_answering };

std::string fault_name(fault f) {
  switch (f) {
    case fault::killed: return "killed";
    case fault::stopped: return "stopped";
    case fault::never_listening: return "never_listening";
    case fault::never_answering: return "never_answering";
  }
  return "?";
}

// For gtest's messages: the fault's name rather than its bytes.
void PrintTo(fault f, std::ostream* out) { *out << fault_name(f); }

// The run's shape: short, since every protocol runs every loop shape with every fault (over 400
// runs per build). The fault comes 0.6 s after the client's first connection, whatever its
// start-up took (ASan's, gRPC's, a loaded machine's): 0.4 s into the window after a 0.2 s
// warm-up (0.6 s into a ramp), a few timeline intervals of calls before it.
constexpr double warmup_s = 0.2, duration_s = 1.0, timeout_s = 1.0;
constexpr auto fault_after = 600ms;  // after the client connected
// What the issue allows: warm-up + window + call timeout + 2 s; plus 1 s for the program to start
// (gRPC's and the sanitizers' start-up is slow, several at a time slower still).
constexpr auto bound = std::chrono::milliseconds(
    static_cast<int>((warmup_s + duration_s + timeout_s + 2 + 1) * 1000));

using test::read_file;

// The loop, timed by --duration or counted by -n. A closed loop's count is more than the window
// can hold, so that its cap (--duration) ends it whatever the fault; an open loop's is the
// timed run's 400 arrivals, under a cap it never reaches: 3 s, since a server that never answers
// holds every slot, and an arrival may wait its whole call timeout for one (the last, due at
// 1 s, is then made or timed out unsent by 2 s: a 2 s cap raced it).
enum class shape { closed, open, closed_count, open_count, closed_mix, open_mix, open_stages, closed_stages };

std::string shape_name(shape s) {
  switch (s) {
    case shape::closed: return "closed";
    case shape::open: return "open";
    case shape::closed_count: return "closed_n";
    case shape::open_count: return "open_n";
    case shape::closed_mix: return "closed_mix";
    case shape::open_mix: return "open_mix";
    case shape::open_stages: return "open_stages";
    case shape::closed_stages: return "closed_stages";
  }
  return "?";
}

// A mix of two requests our server (and redis-server) answer, in the protocol's words, weighted
// 1:2; empty for a protocol that sends no mix.
std::vector<std::string> mix_flags(const protocol& p) {
  if (!p.can.user_calls) return {};
  const std::string kind = p.can.user_calls->name;
  if (kind == "http")
    return {"--request", "/greet?name=a", "--request", "GET /greet?name=b", "--weights", "1,2"};
  if (kind == "resp")
    return {"--request", "PING", "--request", "ECHO hi", "--weights", "1,2"};
  if (kind == "msgpack")
    return {"--request", "greet [\"a\"]", "--request", "greet [\"b\"]", "--weights", "1,2"};
  if (kind == "grpc")
    return {"--proto", WIREBENCH_ECHO_PROTO, "--request", "wirebench.echo.Echo/Greet {\"name\": \"a\"}",
            "--request", "wirebench.echo.Echo/Get {\"text\": \"b\"}", "--weights", "1,2"};
  return {};
}
void PrintTo(shape s, std::ostream* out) { *out << shape_name(s); }

using fault_case = std::tuple<std::string, shape, fault>;  // protocol, loop, fault

class run_faults : public ::testing::TestWithParam<fault_case> {};

TEST_P(run_faults, the_run_ends_in_time_and_counts_every_call_once) {
  const auto& [protocol, loop, what] = GetParam();
  const bool open_loop = loop == shape::open || loop == shape::open_count || loop == shape::open_mix ||
                         loop == shape::open_stages;
  const bool mix = loop == shape::closed_mix || loop == shape::open_mix;
  test::temp_dir dir("faults");
  std::optional<server_process> server;
  std::string where;
  int deaf = -1;  // never_answering: the listening socket nobody accepts from
  if (what == fault::never_listening) {
    // A socket path nobody made: unlike a just-freed TCP port, no parallel test can take it.
    where = "unix:" + dir.path("nobody.sock");
  } else if (what == fault::never_answering) {
    endpoint bound;
    deaf = test::listen_on_loopback(bound);
    where = bound.to_string();
  } else {
    server_config config;
    config.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
    server.emplace(app::serve_command_line(protocol, config, WIREBENCH_CLI));
    where = server->local_endpoint().to_string();
  }
  std::vector<std::string> argv = {WIREBENCH_CLI, "run", "-p", protocol, "--connect", where,
                                   "--timeout", std::to_string(timeout_s), "-R", "1", "-q", "-o",
                                   dir.path("out.json")};
  if (loop != shape::open_stages && loop != shape::closed_stages)  // stages are their time
    argv.insert(argv.end(), {"--warmup", std::to_string(warmup_s), "--duration",
                             std::to_string(loop == shape::open_count ? 3 : duration_s)});
  // The ramp: up to 400/s in 0.5 s (100 calls), held 0.75 s (300): 400 calls, as the others'.
  const std::vector<std::string> load =
      loop == shape::open_stages ? std::vector<std::string>{"--stages", "400@500ms,400@750ms", "-w", "16"}
      // 4 workers reached in 250 ms, held 1 s.
      : loop == shape::closed_stages ? std::vector<std::string>{"--load", "closed", "--stages", "4@250ms,4@1s"}
      : open_loop                ? std::vector<std::string>{"--rate", "400", "-w", "16"}
                                 : std::vector<std::string>{"-w", "4"};
  argv.insert(argv.end(), load.begin(), load.end());
  if (loop == shape::closed_count) argv.insert(argv.end(), {"-n", "1000000000"});
  if (loop == shape::open_count) argv.insert(argv.end(), {"-n", "400"});  // --duration 3: its cap
  if (mix) {
    const auto flags = mix_flags(*protocol_registry::builtin().find(protocol));
    argv.insert(argv.end(), flags.begin(), flags.end());
  }
  const auto started = std::chrono::steady_clock::now();
  test::child_process run(argv, dir.path("stdout"), dir.path("stderr"));
  double fault_unix = 0;  // when the server was killed or stopped, on the system clock
  if (server) {
    const auto give_up = started + bound;
    while (!test::port_had_a_connection(server->local_endpoint().port) &&
           std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(5ms);
    std::this_thread::sleep_for(fault_after);
    fault_unix = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    ::kill(server->pid(), what == fault::killed ? SIGKILL : SIGTERM);
  }
  const int status = run.wait_for_exit(bound + 5s);
  const auto took = std::chrono::steady_clock::now() - started;
  if (deaf >= 0) ::close(deaf);
  const std::string err = read_file(dir.path("stderr"));
  ASSERT_NE(status, -1) << "still running after " << (bound + 5s).count() << " ms\n" << err;
  EXPECT_LE(took, bound) << err;

  if (what == fault::never_listening) {
    EXPECT_EQ(status, 1) << err;
    EXPECT_NE(err.find("no connection to " + where + " could be made"), std::string::npos) << err;
    if (!protocol.starts_with("grpcpp")) {
      EXPECT_LE(took, 2500ms) << "noticed late:\n" << err;
    }
    EXPECT_NE(err.find("no results"), std::string::npos) << err;
    return;
  }
  if (what == fault::never_answering && status == 1) {
    // A client that can tell it never had a connection (gRPC's handshake never answered) says so.
    EXPECT_NE(err.find("no connection to " + where + " could be made"), std::string::npos) << err;
    return;
  }
  if (what == fault::never_answering) {
    // Not a call could succeed: the run says so by its status (its results are still written).
    EXPECT_EQ(status, 3) << err;
    EXPECT_NE(err.find("no call succeeded: "), std::string::npos) << err;
  } else {
    ASSERT_EQ(status, 0) << err;  // calls succeeded before the fault
  }
  const json results = json::parse(read_file(dir.path("out.json")));
  ASSERT_EQ(results["points"].size(), 1u) << err;
  const json& repeat = results["points"][0]["repeats"][0];
  std::uint64_t counted = 0;
  for (const auto& [name, n] : repeat["outcomes"].items()) counted += n.get<std::uint64_t>();
  const std::uint64_t planned = repeat["planned"], issued = repeat["issued"];
  if (open_loop) {
    EXPECT_EQ(planned, 400u);  // 400/s over 1 s, evenly spaced, -n 400 or the ramp: exactly
    EXPECT_EQ(counted, planned) << repeat["outcomes"];
  } else {
    EXPECT_EQ(counted, issued) << repeat["outcomes"];
  }
  EXPECT_EQ(repeat["watchdog"], "");
  if (mix) {  // each call under the one request it sent: the requests' counts add up to the point's
    ASSERT_EQ(repeat["requests"].size(), 2u);
    std::uint64_t by_request = 0;
    for (const json& r : repeat["requests"])
      for (const auto& [name, n] : r["outcomes"].items()) by_request += n.get<std::uint64_t>();
    EXPECT_EQ(by_request, counted) << repeat["requests"];
  }
  // The closed loop's count ends at its cap; the open loop's is made in full.
  EXPECT_EQ(repeat["gave_up"], loop == shape::closed_count
                                   ? "the time cap (1s) passed before all 1000000000 calls were made"
                                   : "");
  if (what == fault::never_answering) {
    EXPECT_GT(counted, 0u) << "the calls in flight across the window are counted";
    EXPECT_EQ(repeat["outcomes"]["ok"], 0u) << repeat["outcomes"];
    EXPECT_NE(read_file(dir.path("stdout")).find("no call succeeded"), std::string::npos);
    return;
  }
  EXPECT_GT(repeat["outcomes"]["ok"].get<std::uint64_t>(), 0u) << repeat["outcomes"];
  EXPECT_EQ(repeat["outcomes"]["unfinished"], 0u);
  // Killed, the server answers nothing more: calls fail from then on, each with a type. The
  // timeline shows when: calls succeed in the intervals before the kill, and the first failure
  // comes in the kill's interval or after it.
  if (what == fault::killed) {
    // The kill is timed from the client's first connection as this test saw it; on a loaded
    // machine the test can see it so late that the kill comes after the run stopped calling (CI:
    // grpc-batch killed in the timeline's 12th interval of 13, after the 1 s window, every call
    // ok). Then there is nothing to judge, and the case says so instead of passing or failing.
    const double window_end = repeat["window_start_unix"].get<double>() + repeat["window_seconds"].get<double>();
    if (fault_unix >= window_end)
      GTEST_SKIP() << "the kill came " << fault_unix - window_end << " s after the window ended: the "
                   << "test saw the client's connection late (a loaded machine); nothing to judge";
    EXPECT_GT(counted, repeat["outcomes"]["ok"].get<std::uint64_t>()) << repeat["outcomes"];
    const json& t = repeat["timeline"];
    const double interval_s = t["interval_ns"].get<double>() / 1e9;
    const auto killed_in = static_cast<std::size_t>((fault_unix - t["start_unix"].get<double>()) / interval_s);
    std::size_t first_failed = t["ok"].size();
    for (const auto& [outcome, column] : t["failed"].items())
      for (std::size_t k = 0; k < column.size(); ++k)
        if (column[k].get<std::uint64_t>() > 0) first_failed = std::min(first_failed, k);
    // (gtest builds the message only on failure: /proc is scanned for who listens then only.)
    ASSERT_LT(first_failed, t["ok"].size())
        << t["failed"] << "\nkilled at " << std::fixed << fault_unix << ", interval " << killed_in
        << " of the window's " << t["ok"].size() << "; listening on its port after the run: "
        << test::port_listeners(server->local_endpoint().port)
        << "\n" << repeat["outcomes"] << "\n" << err;
    EXPECT_GE(first_failed, killed_in) << "a call failed before the server was killed: " << t["failed"];
    std::uint64_t ok_before = 0;
    for (std::size_t k = 0; k < first_failed; ++k) ok_before += t["ok"][k].get<std::uint64_t>();
    EXPECT_GT(ok_before, 0u) << t["ok"];
  }
}

// A closed loop against a live server calls as fast as the machine goes (busy: both cores); every
// other case mostly waits (an open loop's 400 calls a second, a server that never listens or
// never answers). CMake registers the two suites apart, so that scripts/test runs the waiting
// ones several at a time (tests/app/CMakeLists.txt).
bool keeps_cpu_busy(shape loop, fault f) {
  const bool closed = loop == shape::closed || loop == shape::closed_count ||
                      loop == shape::closed_mix || loop == shape::closed_stages;
  return closed && (f == fault::killed || f == fault::stopped);
}

std::vector<fault_case> all_cases(bool busy) {
  std::vector<fault_case> out;
  for (const auto& p : protocol_registry::builtin().all()) {
    for (const shape loop : {shape::closed, shape::open, shape::closed_count, shape::open_count,
                             shape::closed_mix, shape::open_mix, shape::open_stages,
                             shape::closed_stages}) {
      const bool mix = loop == shape::closed_mix || loop == shape::open_mix;
      if (mix && mix_flags(p).empty()) continue;
      for (const fault f : {fault::killed, fault::stopped, fault::never_listening,
                            fault::never_answering})
        if (keeps_cpu_busy(loop, f) == busy) out.emplace_back(p.name, loop, f);
    }
  }
  return out;
}

std::string case_name(const ::testing::TestParamInfo<fault_case>& info) {
  std::string name = std::get<0>(info.param) + "_" + shape_name(std::get<1>(info.param)) + "_" +
                     fault_name(std::get<2>(info.param));
  for (char& c : name)
    if (c == '-') c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(busy, run_faults, ::testing::ValuesIn(all_cases(true)), case_name);
INSTANTIATE_TEST_SUITE_P(waiting, run_faults, ::testing::ValuesIn(all_cases(false)), case_name);

}  // namespace
}  // namespace wirebench
