// Request mixes through the CLI, as users write them, against servers we did not write: a
// weighted mix of three nginx locations over mutual TLS (a --workload file), h2load's -i (URLs
// one per line, --request @FILE) over h2c, and redis-benchmark's -t set,get with INCR beside
// (pipelined 16 deep) against redis-server, and a ramp of k6's kind (--stages) against nginx. What
// the server saw is counted on its side (nginx's access log per location and per second, redis's
// counter) and compared with the weights, the ramp and wirebench's per-request results; and a
// gRPC mix of two methods against grpcio, which logs each call's method, message and metadata. Each run is bounded by -n and a cap; every server is stopped by its test.
#include <algorithm>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/cli_run.hpp"
#include "support/cert_files.hpp"
#include "support/child_process.hpp"
#include "support/nginx_server.hpp"
#include "support/read_file.hpp"
#include "support/require_peer.hpp"
#include "support/temp_dir.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using nlohmann::json;

std::uint64_t lines_in(const std::string& path) {
  std::ifstream in(path);
  std::uint64_t n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n;
}

// `calls` within 2% of `total` * `share`.
void expect_share(std::uint64_t calls, std::uint64_t total, double share, const std::string& what) {
  const double expected = static_cast<double>(total) * share;
  EXPECT_NEAR(static_cast<double>(calls), expected, 0.02 * expected) << what;
}

// nginx requires a client certificate our CA signed (ssl_verify_client) and logs each location
// apart; the mix is a workload file: one absolute URL (the server), two paths, each with its
// weight and its expected body.
TEST(workload_interop, a_weighted_mix_of_nginx_locations_over_mutual_tls_matches_its_weights) {
  WIREBENCH_REQUIRE_PEER("nginx", "nginx-light");
  test::cert_files server, member("member");
  test::temp_dir logs("mix-logs");
  std::string locations;
  for (const char* name : {"a", "b", "c"})
    locations += std::string("    location = /") + name + " { access_log " + logs.path(name) +
                 ".log; default_type text/plain; return 200 '" + name + "'; }\n";
  test::nginx_server nginx("nginx-mix", locations,
                           "  ssl_verify_client on;\n  ssl_client_certificate " + member.cert() + ";\n",
                           {server.cert(), server.key()});
  ASSERT_TRUE(nginx.started()) << "nginx did not start";
  const std::string base = "https://127.0.0.1:" + std::to_string(nginx.tls_port());
  const std::string workload = logs.path("mix.json");
  std::ofstream(workload) << json{
      {"requests",
       {{{"name", "a"}, {"url", base + "/a"}, {"weight", 5}, {"expect_body", "a"}},
        {{"name", "b"}, {"path", "/b"}, {"weight", 3}, {"expect_body", "b"}, {"headers", {{"X-Mix", "b"}}}},
        {{"name", "c"}, {"method", "POST"}, {"path", "/c"}, {"body", "x"}, {"weight", 2},
         {"expect_body", "c"}}}}}.dump();
  const std::uint64_t total = 20'000;
  for (const char* protocol : {"http1", "http2"}) {
    SCOPED_TRACE(protocol);
    for (const char* name : {"a", "b", "c"}) std::ofstream(logs.path(name) + ".log", std::ios::trunc);
    const std::string out = logs.path(std::string(protocol) + ".json");
    const auto r = test::run_cli(std::string("run -p ") + protocol + " --workload " + workload +
                                 " --tls-ca " + server.cert() + " --cert " + member.cert() + " --key " +
                                 member.key() + " -n " + std::to_string(total) +
                                 " --duration 60 --warmup 0 --workers 8 -R 1 -q --timeout 5 -o " + out,
                             out);
    ASSERT_EQ(r.status, 0) << r.out;
    const json& point = r.results["points"][0];
    EXPECT_EQ(point["summary"]["outcomes"]["ok"], total) << point["summary"]["errors"];
    EXPECT_EQ(point["parameters"]["transport"], "remote+tls");
    ASSERT_EQ(point["summary"]["requests"].size(), 3u);
    const double shares[] = {0.5, 0.3, 0.2};
    const char* names[] = {"a", "b", "c"};
    for (std::size_t i = 0; i < 3; ++i) {
      const std::uint64_t ours = point["summary"]["requests"][i]["outcomes"]["ok"];
      const std::uint64_t seen = lines_in(logs.path(names[i]) + ".log");  // what nginx served
      expect_share(ours, total, shares[i], std::string("wirebench's count of ") + names[i]);
      expect_share(seen, total, shares[i], std::string("nginx's count of ") + names[i]);
      EXPECT_EQ(point["parameters"]["requests"][i]["name"], names[i]);
      EXPECT_EQ(point["parameters"]["requests"][i]["weight"], static_cast<int>(shares[i] * 10));
    }
    EXPECT_NE(r.out.find("requests of " + std::string(protocol) + " closed workers=8:"), std::string::npos) << r.out;
  }
  // Without a client certificate nginx answers 400: every call of the mix fails, none is lost.
  const std::string refused = logs.path("refused.json");
  const auto r = test::run_cli("run -p http1 --workload " + workload + " --tls-ca " + server.cert() +
                               " -n 300 --duration 30 --warmup 0 --workers 2 -R 1 -q --timeout 5 -o " + refused,
                           refused);
  ASSERT_EQ(r.status, 3) << r.out;  // no call succeeded: the run failed, its results written
  EXPECT_EQ(r.results["points"][0]["summary"]["outcomes"]["ok"], 0);
  EXPECT_EQ(r.results["points"][0]["summary"]["errors"], (json{{"status_400", 300}}));
}

// h2load -i urls.txt -n 3000: URLs one per line (a comment and a blank line skipped), round
// robin; nginx serves each exactly a third.
TEST(workload_interop, requests_from_a_file_are_sent_round_robin_as_h2loads_i) {
  WIREBENCH_REQUIRE_PEER("nginx", "nginx-light");
  test::temp_dir logs("urls-logs");
  std::string locations;
  for (const char* name : {"x", "y", "z"})
    locations += std::string("    location = /") + name + " { access_log " + logs.path(name) +
                 ".log; return 204; }\n";
  test::nginx_server nginx("nginx-urls", locations);
  ASSERT_TRUE(nginx.started()) << "nginx did not start";
  const std::string base = "http://127.0.0.1:" + std::to_string(nginx.h2c_port());
  const std::string urls = logs.path("urls.txt");
  std::ofstream(urls) << "# the three resources\n" << base << "/x\n\n" << base << "/y\r\n" << base << "/z\n";
  const std::string out = logs.path("out.json");
  const auto r = test::run_cli("run -p http2 --request @" + urls +
                               " --expect-status 204 -n 3000 --duration 60 --warmup 0 --workers 3 "
                               "-R 1 -q --timeout 5 -o " + out, out);
  ASSERT_EQ(r.status, 0) << r.out;
  const json& point = r.results["points"][0];
  EXPECT_EQ(point["summary"]["outcomes"]["ok"], 3000) << point["summary"]["errors"];
  for (const char* name : {"x", "y", "z"}) EXPECT_EQ(lines_in(logs.path(name) + ".log"), 1000u) << name;
  ASSERT_EQ(point["parameters"]["requests"].size(), 3u);
  EXPECT_EQ(point["parameters"]["requests"][1]["target"], "/y");
}

// redis-benchmark -t set,get -n ... -P 16, with INCR beside: every reply checked (SET's OK,
// GET's value); redis's own counter says how many INCRs it ran, which must be the mix's count.
TEST(workload_interop, a_set_get_incr_mix_against_redis_server_gets_exact_replies) {
  WIREBENCH_REQUIRE_PEER("redis-server", "redis-server");
  auto server = protocol_registry::builtin().find("redis-server")->make_server({});
  const std::string where = server->local_endpoint().to_string();
  test::temp_dir dir("redis-mix");
  ASSERT_EQ(test::run_cli("call -p resp --connect " + where + " --command 'SET k v'").out, "OK\n");
  // The same mix as JSON, then as YAML (one schema; the YAML's plain 2 a number, its "v" a string).
  std::ofstream(dir.path("mix.json")) << R"({"requests": [
    {"name": "set", "command": "SET k v", "expect_reply": "OK", "weight": 2},
    {"name": "get", "command": ["GET", "k"], "expect_reply": "v", "weight": 5},
    {"name": "incr", "command": "INCR counter", "weight": 3}]})";
  std::ofstream(dir.path("mix.yaml")) << "# redis-benchmark -t set,get with INCR beside\n"
                                         "requests:\n"
                                         "  - name: set\n"
                                         "    command: SET k v\n"
                                         "    expect_reply: OK\n"
                                         "    weight: 2\n"
                                         "  - {name: get, command: [GET, k], expect_reply: \"v\", weight: 5}\n"
                                         "  - name: incr\n"
                                         "    command: INCR counter\n"
                                         "    weight: 3\n";
  std::uint64_t incrs = 0;
  for (const char* file : {"mix.json", "mix.yaml"}) {
    SCOPED_TRACE(file);
    const std::string out = dir.path("out.json");
    const auto r = test::run_cli("run -p redis-server --connect " + where + " --workload " + dir.path(file) +
                                 " --depth 16 -n 10000 --duration 60 --warmup 0 --workers 4 -R 1 -q "
                                 "--timeout 5 -o " + out, out);
    ASSERT_EQ(r.status, 0) << r.out;
    const json& point = r.results["points"][0];
    EXPECT_EQ(point["summary"]["outcomes"]["ok"], 10000) << point["summary"]["errors"];
    // 4 workers x 2500 calls: 250 whole cycles of 10 each.
    EXPECT_EQ(point["summary"]["requests"][2]["outcomes"]["ok"], 3000);
    EXPECT_EQ(point["summary"]["requests"][0]["outcomes"]["ok"], 2000);
    EXPECT_EQ(point["parameters"]["requests"][1]["name"], "get");
    EXPECT_EQ(point["parameters"]["requests"][1]["weight"], 5);
    incrs += point["summary"]["requests"][2]["outcomes"]["ok"].get<std::uint64_t>();
  }
  EXPECT_EQ(test::run_cli("call -p resp --connect " + where + " --command 'GET counter'").out,
            "\"" + std::to_string(incrs) + "\"\n");  // quoted, as redis-cli shows a string
  server->stop();
}

// Per-call data, as ghz's --data-file and JMeter's CSV data set give it: users from a CSV file
// (RFC 4180 quoting), a key picked from a list, a random string of 20 characters. redis-server
// holds what was sent: each user's key has the name from its own row, the three counters add up
// to the INCRs made and share them about evenly, and every random key is 20 characters of its own.
TEST(workload_interop, per_call_picks_and_random_strings_reach_redis_server_as_written) {
  WIREBENCH_REQUIRE_PEER("redis-server", "redis-server");
  WIREBENCH_REQUIRE_PEER("redis-cli", "redis-tools");
  auto server = protocol_registry::builtin().find("redis-server")->make_server({});
  const std::string where = server->local_endpoint().to_string();
  const std::string port = std::to_string(server->local_endpoint().port);
  test::temp_dir dir("redis-picks");
  std::ofstream(dir.path("users.csv")) << "id,name\n1,ann\n2,\"bo, the second\"\n3,cy\n4,dee\n";
  std::ofstream(dir.path("picks.json")) << json{
      {"requests",
       {{{"name", "user"}, {"command", {"SET", "user:__csv(" + dir.path("users.csv") + ":id)__",
                                        "__csv(" + dir.path("users.csv") + ":name)__"}},
         {"expect_reply", "OK"}},
        {{"name", "hit"}, {"command", "INCR hits:__pick(a|b|c)__"}},
        {{"name", "random"}, {"command", "SET r:__rand_str_20__ x"}, {"expect_reply", "OK"}}}}}.dump();
  const std::string out = dir.path("out.json");
  const auto r = test::run_cli("run -p redis-server --connect " + where + " --workload " + dir.path("picks.json") +
                               " --depth 8 -n 3000 --duration 60 --warmup 0 --workers 3 -R 1 -q --timeout 5 -o " + out,
                           out);
  ASSERT_EQ(r.status, 0) << r.out;
  const json& point = r.results["points"][0];
  ASSERT_EQ(point["summary"]["outcomes"]["ok"], 3000) << point["summary"]["errors"];
  for (int i = 0; i < 3; ++i) EXPECT_EQ(point["summary"]["requests"][i]["outcomes"]["ok"], 1000) << i;
  auto redis = [&](const std::string& args) {
    return test::run_shell("redis-cli -p " + port + " " + args);
  };
  const char* names[] = {"ann", "bo, the second", "cy", "dee"};
  for (int id = 1; id <= 4; ++id)
    EXPECT_EQ(redis("GET user:" + std::to_string(id)), std::string(names[id - 1]) + "\n") << id;
  std::uint64_t hits = 0;
  for (const char* key : {"a", "b", "c"}) {
    const std::uint64_t n = std::stoull(redis(std::string("GET hits:") + key));
    EXPECT_GT(n, 250u) << key;  // 1000 uniform picks of 3: 333 +- 15 (binomial)
    EXPECT_LT(n, 420u) << key;
    hits += n;
  }
  EXPECT_EQ(hits, 1000u);
  std::istringstream keys(redis("--scan --pattern 'r:*'"));
  std::set<std::string> random;
  for (std::string key; std::getline(keys, key);) {
    EXPECT_TRUE(std::regex_match(key, std::regex("r:[0-9a-z]{20}"))) << key;
    random.insert(key);
  }
  EXPECT_EQ(random.size(), 1000u);
  server->stop();
}

// A path picked per call from a file's lines (--request as h2load's -i would take one URL), over
// HTTP/1.1 and HTTP/2: nginx serves each location about half the time, every call exactly once.
TEST(workload_interop, a_path_picked_per_call_reaches_each_nginx_location) {
  WIREBENCH_REQUIRE_PEER("nginx", "nginx-light");
  test::temp_dir logs("pick-logs");
  std::string locations;
  for (const char* name : {"a", "b"})
    locations += std::string("    location = /") + name + " { access_log " + logs.path(name) +
                 ".log; default_type text/plain; return 200 '" + name + "'; }\n";
  test::nginx_server nginx("nginx-pick", locations);
  ASSERT_TRUE(nginx.started()) << "nginx did not start";
  std::ofstream(logs.path("paths.txt")) << "a\nb\n";
  for (const char* protocol : {"http1", "http2"}) {
    SCOPED_TRACE(protocol);
    for (const char* name : {"a", "b"}) std::ofstream(logs.path(name) + ".log", std::ios::trunc);
    const std::string out = logs.path("out.json");
    const int port = std::string(protocol) == "http2" ? nginx.h2c_port() : nginx.port();
    const auto r = test::run_cli(std::string("run -p ") + protocol + " --url 'http://127.0.0.1:" +
                                 std::to_string(port) + "/__pick(@" + logs.path("paths.txt") +
                                 ")__' -n 2000 --duration 60 --warmup 0 --workers 4 -R 1 -q --timeout 5 -o " + out,
                             out);
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.results["points"][0]["summary"]["outcomes"]["ok"], 2000) << r.results["points"][0]["summary"];
    const std::uint64_t a = lines_in(logs.path("a.log")), b = lines_in(logs.path("b.log"));
    EXPECT_EQ(a + b, 2000u);
    EXPECT_GT(a, 850u);  // 2000 uniform picks of 2: 1000 +- 22 (binomial)
    EXPECT_GT(b, 850u);
  }
}

// k6's ramping-arrival-rate: the rate nginx sees, second by second (its access log's $msec),
// follows the stages within 5%: up from 0 to 2000/s over 3 s, then held 2 s.
TEST(workload_interop, the_rate_a_server_sees_follows_the_stages) {
  WIREBENCH_REQUIRE_PEER("nginx", "nginx-light");
  test::temp_dir logs("ramp-logs");
  test::nginx_server nginx("nginx-ramp",
                           "    location = /r { access_log " + logs.path("r.log") +
                               " at; return 204; }\n",
                           "  log_format at '$msec';\n");
  ASSERT_TRUE(nginx.started()) << "nginx did not start";
  const std::string out = logs.path("out.json");
  const auto r = test::run_cli("run -p http2 --url http://127.0.0.1:" + std::to_string(nginx.h2c_port()) +
                               "/r --expect-status 204 --stages 2000@3s,2000@2s --workers 64 -R 1 -q "
                               "--timeout 5 -o " + out, out);
  ASSERT_EQ(r.status, 0) << r.out;
  const json& point = r.results["points"][0];
  EXPECT_EQ(point["parameters"]["stages"], "2000@3s,2000@2s");
  EXPECT_EQ(point["repeats"][0]["planned"], 7000);  // 3000 in the ramp, 4000 held
  EXPECT_EQ(point["summary"]["outcomes"]["ok"], 7000) << point["summary"]["errors"];
  std::vector<double> seen;
  {
    std::ifstream in(logs.path("r.log"));
    for (double at; in >> at;) seen.push_back(at);
  }
  ASSERT_EQ(seen.size(), 7000u);
  const double start = *std::min_element(seen.begin(), seen.end());
  std::vector<double> per_second(5, 0);
  for (const double at : seen) per_second.at(std::min<std::size_t>(4, static_cast<std::size_t>(at - start)))++;
  const double expected[] = {2000.0 / 6, 1000, 2000 - 2000.0 / 6, 2000, 2000};
  for (std::size_t k = 0; k < 5; ++k)
    EXPECT_NEAR(per_second[k], expected[k], 0.05 * expected[k]) << "second " << k;
}

// A gRPC mix against grpcio (python3-grpcio): two methods of echo.proto in a workload file, each
// with its own metadata (and -H's beside), Get's messages a list sent in turn, Greet's name the
// call's sequence number. The server logs each call it answers: its method, its message and the
// metadata it saw. One worker, one connection, no warm-up: the shares and the turns are exact.
TEST(workload_interop, a_grpcio_server_sees_both_methods_of_a_mix_with_their_metadata) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  test::temp_dir dir("grpc-mix");
  const int port = test::free_loopback_port();
  test::child_process peer({test::debian_python3, WIREBENCH_GRPCIO_PEER, "serve", std::to_string(port),
                            "log", dir.path("calls.log")});
  ASSERT_TRUE(test::wait_for_listener(port));
  const std::string workload = dir.path("mix.json");
  std::ofstream(workload) << json{
      {"requests",
       {{{"name", "get"}, {"method", "wirebench.echo.Echo/Get"}, {"weight", 3},
         {"message", json::array({json{{"text", "a"}}, json{{"text", "b"}}, json{{"text", "c"}}})},
         {"metadata", json{{"x-team", "blue"}}}},
        {{"name", "greet"}, {"method", "wirebench.echo.Echo/Greet"}, {"weight", 1},
         {"message", json{{"name", "n__sequence__"}}}, {"metadata", json::array({"x-team: red", "x-raw-bin: hi"})}}}}}
                        .dump();
  const std::string where = "tcp://127.0.0.1:" + std::to_string(port);
  const auto r = test::run_cli("run -p grpc --connect " + where + " --proto " + WIREBENCH_ECHO_PROTO +
                           " --workload " + workload + " -H 'x-run: 7' --load closed -w 1 -n 2400 -R 1"
                           " --warmup 0 --duration 60 -q -o " + dir.path("out.json"),
                           dir.path("out.json"));
  ASSERT_EQ(r.status, 0) << r.out;
  const json& point = r.results["points"][0];
  EXPECT_EQ(point["summary"]["outcomes"]["ok"], 2400) << point["summary"]["errors"];
  ASSERT_EQ(point["summary"]["requests"].size(), 2u);
  EXPECT_EQ(point["summary"]["requests"][0]["outcomes"]["ok"], 1800);
  EXPECT_EQ(point["summary"]["requests"][1]["outcomes"]["ok"], 600);

  std::map<std::string, std::uint64_t> seen;  // "method text metadata" -> calls
  std::set<std::string> names;                // Greet's, each a sequence number
  {
    std::ifstream in(dir.path("calls.log"));
    for (std::string line; std::getline(in, line);) {
      const auto tab = line.find('\t'), tab2 = line.find('\t', tab + 1);
      ASSERT_NE(tab2, std::string::npos) << line;
      const std::string method = line.substr(0, tab), text = line.substr(tab + 1, tab2 - tab - 1);
      if (method == "Greet") {
        EXPECT_TRUE(std::regex_match(text, std::regex("n[0-9]{12}"))) << text;
        names.insert(text);
        ++seen["Greet " + line.substr(tab2 + 1)];
      } else {
        ++seen[method + " " + text + " " + line.substr(tab2 + 1)];
      }
    }
  }
  const std::map<std::string, std::uint64_t> expected = {
      {"Get a x-run=7;x-team=blue;", 600},
      {"Get b x-run=7;x-team=blue;", 600},
      {"Get c x-run=7;x-team=blue;", 600},
      {"Greet x-raw-bin=b'hi';x-run=7;x-team=red;", 600}};
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(names.size(), 600u) << "each Greet a sequence number of its own";

  // The same two methods as --request lines: the methods and -d's default message.
  const auto lines = test::run_cli("run -p grpc --connect " + where + " --proto " + WIREBENCH_ECHO_PROTO +
                               " --request 'wirebench.echo.Echo/Get {\"text\": \"q\"}'"
                               " --request wirebench.echo.Echo/Greet -d '{\"name\": \"d\"}'"
                               " --weights 1,3 --load closed -w 1 -n 400 -R 1 --warmup 0 --duration 60 -q -o " +
                                   dir.path("lines.json"),
                               dir.path("lines.json"));
  ASSERT_EQ(lines.status, 0) << lines.out;
  EXPECT_EQ(lines.results["points"][0]["summary"]["requests"][0]["outcomes"]["ok"], 100);
  EXPECT_EQ(lines.results["points"][0]["summary"]["requests"][1]["outcomes"]["ok"], 300);
}

// One file for a run of several protocols: a section per kind of request, each protocol sending
// its own kind's (the servers the run starts answer the greet path and command).
TEST(workload_interop, a_workload_with_a_section_per_kind_gives_each_protocol_its_requests) {
  test::temp_dir dir("workload-sections");
  std::ofstream(dir.path("w.yaml")) << "http:\n"
                                       "  requests:\n"
                                       "    - {name: a, path: \"/greet?name=a\", weight: 3, expect_body: '{\"greeting\":\"hello, a\"}'}\n"
                                       "    - {name: picked, path: \"/greet?name=__pick(b|c)__\"}\n"
                                       "resp:\n"
                                       "  requests:\n"
                                       "    - {name: greet, command: GREET x, expect_reply: \"hello, x\"}\n"
                                       "grpc:\n"
                                       "  requests: [{method: not.Read/Ever}]\n";
  const std::string out = dir.path("out.json");
  const auto r = test::run_cli("run -p http1,resp,http2 --workload " + dir.path("w.yaml") +
                               " -n 800 --duration 60 --warmup 0 --workers 4 -R 1 -q --timeout 5 -o " + out,
                           out);
  ASSERT_EQ(r.status, 0) << r.out;
  const json& points = r.results["points"];
  ASSERT_EQ(points.size(), 3u);
  for (const json& point : points) {
    SCOPED_TRACE(point["parameters"]["protocol"].get<std::string>());
    EXPECT_EQ(point["summary"]["outcomes"]["ok"], 800) << point["summary"]["errors"];
    const bool resp = point["parameters"]["protocol"] == "resp";
    ASSERT_EQ(point["parameters"]["requests"].size(), resp ? 1u : 2u);
    EXPECT_EQ(point["parameters"]["requests"][0]["name"], resp ? "greet" : "a");
    if (!resp) {
      EXPECT_EQ(point["summary"]["requests"][1]["outcomes"]["ok"], 200);
    }
  }
  auto refusal = [&](const std::string& protocols, const std::string& text) {
    std::ofstream(dir.path("bad.json"), std::ios::trunc) << text;
    const auto bad = test::run_cli("run -p " + protocols + " --workload " + dir.path("bad.json") + " -n 1");
    EXPECT_EQ(bad.status, 2) << bad.out;
    return bad.out;
  };
  const std::string file = dir.path("bad.json");
  EXPECT_NE(refusal("http1,resp", R"({"http": {"requests": [{"path": "/"}]}})")
                .find(file + ": no 'resp' section, for the protocols that send RESP commands"),
            std::string::npos);
  EXPECT_NE(refusal("resp", R"({"resp": {"requests": [{"command": "GET"}]}, "requests": []})")
                .find(file + ": requests: unknown field beside the sections (known: http, resp, grpc, msgpack)"),
            std::string::npos);
  EXPECT_NE(refusal("resp", R"({"resp": {"requests": [{"command": 5}]}})")
                .find(file + ": resp.requests[0].command: a string"),
            std::string::npos);
  EXPECT_NE(refusal("http1,resp", R"({"requests": [{"path": "/"}]})")
                .find("its requests are read in one protocol's words: give it a section per kind"),
            std::string::npos);
}

// A workload file's mistakes are usage errors (exit 2) naming the file and the field.
TEST(workload_interop, a_bad_workload_file_is_refused_naming_the_field) {
  test::temp_dir dir("bad-workload");
  auto refusal = [&](const std::string& protocol, const std::string& text) {
    std::ofstream(dir.path("w.json"), std::ios::trunc) << text;
    const auto r = test::run_cli("run -p " + protocol + " --workload " + dir.path("w.json") +
                             " --connect tcp://127.0.0.1:9 -n 1");
    EXPECT_EQ(r.status, 2) << r.out;
    return r.out;
  };
  const std::string file = dir.path("w.json");
  EXPECT_NE(refusal("http1", R"({"requests": [{"path": "/a"}, {"path": "/b", "expect_staus": 200}]})")
                .find(file + ": requests[1].expect_staus: unknown field for an HTTP request (known: "),
            std::string::npos);
  EXPECT_NE(refusal("http1", R"({"requests": [{"path": "/a", "weight": 0}]})")
                .find(file + ": requests[0].weight: a whole number from 1 to 1000000"),
            std::string::npos);
  EXPECT_NE(refusal("resp", R"({"requests": [{"command": 7}]})")
                .find(file + ": requests[0].command: a string (split as redis-cli does) or a list of words"),
            std::string::npos);
  EXPECT_NE(refusal("http2", R"({"requests": [{"url": "http://a:1/x"}, {"url": "http://b:1/y"}]})")
                .find("is not the mix's server (http://a:1): a mix loads one server"),
            std::string::npos);
  // A pick's file that cannot be read: refused before anything runs, naming the request.
  EXPECT_NE(refusal("resp", R"({"requests": [{"command": "GET __pick(@/nonexistent/keys)__"}]})")
                .find("request 1 (GET __pick(@/nonexistent/keys)__): __pick(@/nonexistent/keys)__ /nonexistent/keys: cannot read it"),
            std::string::npos);
  EXPECT_NE(refusal("resp", "{\"requests\": []}").find(file + ": requests: a non-empty list"),
            std::string::npos);
  EXPECT_NE(refusal("resp", "[1, 2").find(file + ": not JSON"), std::string::npos);
  EXPECT_NE(refusal("line", R"({"requests": [{"command": "PING"}]})")
                .find("the protocol sends only its greet call"),
            std::string::npos);
  // YAML (by the file's name): the same schema, the same messages; its own syntax errors by line.
  auto yaml_refusal = [&](const std::string& text) {
    std::ofstream(dir.path("w.yaml"), std::ios::trunc) << text;
    const auto r = test::run_cli("run -p resp --workload " + dir.path("w.yaml") + " --connect tcp://127.0.0.1:9 -n 1");
    EXPECT_EQ(r.status, 2) << r.out;
    return r.out;
  };
  EXPECT_NE(yaml_refusal("requests:\n  - command: PING\n    weight: \"3\"\n")
                .find(dir.path("w.yaml") + ": requests[0].weight: a whole number from 1 to 1000000"),
            std::string::npos);
  EXPECT_NE(yaml_refusal("requests:\n  - command: PING\n    expect_reply: [1\n")
                .find(dir.path("w.yaml") + ": not YAML: line "),
            std::string::npos)
      << yaml_refusal("requests:\n  - command: PING\n    expect_reply: [1\n");
  // gRPC: a request needs its .proto (or --reflect), and a method names its service.
  EXPECT_NE(refusal("grpc", R"({"requests": [{"method": "a.B/C"}]})")
                .find(file + ": requests[0].proto: missing: give the request's .proto, or --proto or --reflect"),
            std::string::npos);
  EXPECT_NE(refusal("grpc", R"({"requests": [{"method": "Get", "proto": "x.proto"}]})")
                .find(file + ": requests[0].method: 'Get': give package.Service/Method"),
            std::string::npos);
  const auto no_proto = test::run_cli("run -p grpc --connect tcp://127.0.0.1:9 --request a.B/C --request a.B/D");
  EXPECT_EQ(no_proto.status, 2);
  EXPECT_NE(no_proto.out.find("give the .proto that defines the methods (--proto), or --reflect"), std::string::npos)
      << no_proto.out;
  const auto weights = test::run_cli("run -p resp --connect tcp://127.0.0.1:9 --request PING --request 'ECHO x' --weights 1");
  EXPECT_EQ(weights.status, 2);
  EXPECT_NE(weights.out.find("--weights 1: 1 weights for 2 requests"), std::string::npos) << weights.out;
  // Weights whose cycle is too long, before any server is started.
  const auto cycle = test::run_cli("run -p resp --connect tcp://127.0.0.1:9 --request PING --request 'ECHO x' --weights 1,100000");
  EXPECT_EQ(cycle.status, 2);
  EXPECT_NE(cycle.out.find("--weights 1,100000: weights whose sum"), std::string::npos) << cycle.out;
  // A closed loop's stages are whole workers.
  const auto half = test::run_cli("run -p line --load closed --stages 2.5@1s");
  EXPECT_EQ(half.status, 2);
  EXPECT_NE(half.out.find("each stage is a whole number of workers"), std::string::npos) << half.out;
}

}  // namespace
}  // namespace wirebench
