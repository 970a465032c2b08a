// `wirebench run --scenario echo` (src/app/echo_scenario.hpp), as a user runs it: article 003's
// table from our server and the two references (connect-go's and grpc-go's, as scripts/setup
// builds them), on an abstract socket and TCP, every client and method; every cell measured with
// every call counted, or marked as one the server cannot answer; the table in the article's shape.
#include <chrono>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/child_process.hpp"
#include "support/read_file.hpp"
#include "support/require_peer.hpp"
#include "support/temp_dir.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

int run_echo(const test::temp_dir& dir, std::vector<std::string> args, std::vector<std::string> env = {}) {
  args.insert(args.begin(), {WIREBENCH_CLI, "run", "--scenario", "echo"});
  if (!env.empty()) {
    env.insert(env.begin(), "env");
    args.insert(args.begin(), env.begin(), env.end());
  }
  test::child_process p(args, dir.path("stdout"), dir.path("stderr"));
  return p.wait_for_exit(240s);
}

bool echo_speaks_grpc(const std::string& client) { return client == "grpc" || client == "connect-go/grpc"; }

TEST(echo_scenario, every_server_client_address_and_method_of_article_003) {
  WIREBENCH_REQUIRE_GO_TOOL(connect_go, "connectgo_peer", WIREBENCH_CONNECTGO_PEER_VERSION);
  WIREBENCH_REQUIRE_GO_TOOL(grpc_go, "grpcgo_peer", WIREBENCH_GRPCGO_PEER_VERSION);
  test::temp_dir dir("echo-scenario");
  const int rc = run_echo(dir, {"-n", "20", "-R", "2", "--workers", "4", "--duration", "0.05", "--warmup", "0", "-q", "-o",
                           dir.path("echo.json")});
  const std::string out = test::read_file(dir.path("stdout"));
  ASSERT_EQ(rc, 0) << test::read_file(dir.path("stderr")) << out;
  const json doc = json::parse(test::read_file(dir.path("echo.json")));
  const std::vector<std::string> clients = {"grpc", "connect", "grpc-web", "connect-go/connect", "connect-go/grpc",
                                            "connect-go/grpc-web"};
  std::set<std::string> one_caller, closed;
  for (const json& c : doc["echo"]) {
    const std::string server = c["server"], client = c["client"], method = c["method"];
    const std::string address = c["address"];
    const std::string where = server + " " + client + " " + address + " " + method;
    SCOPED_TRACE(where);
    const std::string kind = address.starts_with("unix:@") ? "abstract" : "tcp";
    if (server == "grpc-go" && !echo_speaks_grpc(client)) {
      EXPECT_EQ(c["skipped"], "grpc-go serves gRPC only");
      EXPECT_TRUE(c["mean_us"].empty());
      EXPECT_EQ(c["workers"], 1);
    } else if (c["workers"] == 1) {
      // One caller: the article's -n calls in each repeat, each one counted and none failed.
      EXPECT_EQ(c["calls"], 2u * 20);
      EXPECT_EQ(c["failed"], 0u);
      ASSERT_EQ(c["mean_us"].size(), 2u);
      EXPECT_GT(c["mean_us"][1].get<double>(), 0);
      // Ours are points of the run, against the server it started; connect-go's client times itself.
      EXPECT_EQ(c["point"].is_null(), client.starts_with("connect-go/"));
      if (!c["point"].is_null()) {
        const json& p = doc["points"][c["point"].get<std::size_t>()]["parameters"];
        EXPECT_EQ(p["protocol"], client);
        EXPECT_EQ(p["endpoint"], address);
        EXPECT_EQ(p["transport"], kind);
        EXPECT_EQ(p["server_engine"], server);
        EXPECT_EQ(p["requests"][0]["method"], "echo.v1.Echo/" + method);
        EXPECT_EQ(doc["points"][c["point"].get<std::size_t>()]["repeats"].size(), 2u);
      }
    } else {
      EXPECT_EQ(c["workers"], 4);
      EXPECT_FALSE(client.starts_with("connect-go/"));  // its client is one caller, as the article's
      EXPECT_GT(c["calls"].get<std::uint64_t>(), 0u);
      EXPECT_EQ(c["failed"], 0u);
      EXPECT_EQ(c["mean_us"].size(), 2u);
    }
    (c["workers"] == 1 ? one_caller : closed).insert(server + " " + client + " " + kind + " " + method);
  }
  // Every combination is there once: 3 servers x 6 clients x 2 addresses x 4 methods with one
  // caller, and our 3 clients under the closed loop but against grpc-go only gRPC's.
  EXPECT_EQ(one_caller.size(), 3u * 6 * 2 * 4);
  EXPECT_EQ(closed.size(), (2u * 3 + 1) * 2 * 4);
  EXPECT_NE(out.find("Article 003's Echo table: one caller"), std::string::npos) << out;
  EXPECT_NE(out.find("The same under a closed loop of 4 callers"), std::string::npos);
  EXPECT_NE(out.find("158us"), std::string::npos);  // the article's own grpc-go Get on @echo
  EXPECT_NE(out.find("abstract / tcp"), std::string::npos);
  EXPECT_NE(out.find("connect / grpc"), std::string::npos);
}

TEST(echo_scenario, a_reference_not_built_is_named_and_the_rest_is_measured) {
  test::temp_dir dir("echo-unbuilt");
  EXPECT_EQ(run_echo(dir, {"--servers", "ours,grpc-go", "-p", "grpc,connect-go", "-n", "5", "--workers", "2", "--duration", "0.05", "-R", "1", "-q", "-o",
                      dir.path("echo.json")},
                {"WIREBENCH_TOOLS=" + dir.path("no-tools")}),
            1);
  const std::string err = test::read_file(dir.path("stderr"));
  EXPECT_NE(err.find("grpc-go's server is not built: scripts/setup builds tests/protocols/grpcgo_peer"),
            std::string::npos)
      << err;
  const json doc = json::parse(test::read_file(dir.path("echo.json")));
  std::size_t ours = 0;
  for (const json& c : doc["echo"]) {
    SCOPED_TRACE(c.dump());
    if (c["server"] == "ours" && c["client"] == "grpc") {
      if (c["workers"] == 1) EXPECT_EQ(c["calls"], 5u);
      else EXPECT_GT(c["calls"].get<std::uint64_t>(), 0u);
      EXPECT_EQ(c["failed"], 0u);
      ++ours;
    } else {
      EXPECT_TRUE(c["mean_us"].empty());
      EXPECT_NE(c["skipped"].get<std::string>().find("is not built"), std::string::npos);
    }
  }
  EXPECT_EQ(ours, 2u * 4 * 2);  // both addresses, every method, one caller and a closed loop of 2
}

TEST(echo_scenario, flags_of_other_loads_are_refused) {
  test::temp_dir dir("echo-usage");
  for (const auto& [args, why] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--rate", "100"}, "--scenario echo runs its own loads and servers: drop --rate"},
           {{"--servers", "nginx"}, "--servers: unknown 'nginx' (ours, connect-go, grpc-go)"},
           {{"-p", "http1"}, "--scenario echo: 'http1' is no client of the Echo service"},
           {{"--call", "x.Y/Z", "--reflect"}, "--scenario echo calls the article's Echo methods: drop the user call"},
           {{"--transport", "unix"}, "--scenario echo: --transport abstract or tcp"}}) {
    SCOPED_TRACE(why);
    EXPECT_EQ(run_echo(dir, args), 2);
    EXPECT_NE(test::read_file(dir.path("stderr")).find(why), std::string::npos) << test::read_file(dir.path("stderr"));
  }
  test::child_process p({WIREBENCH_CLI, "run", "-p", "grpc", "--servers", "ours"}, dir.path("stdout"),
                        dir.path("stderr"));
  EXPECT_EQ(p.wait_for_exit(20s), 2);
  EXPECT_NE(test::read_file(dir.path("stderr")).find("--servers belongs to --scenario echo"), std::string::npos);
}

}  // namespace
}  // namespace wirebench
