// `wirebench run` and `call` with a user call against the reference servers, when installed:
// HTTP/1.1 and h2c against nginx (a URL it serves loses no call; a path it does not is counted as
// failed with its status, 404), and RESP commands against redis-server (SET with a per-call key,
// GET with an expected reply). The CLI runs as the user runs it; each run is short and bounded,
// on loopback, and every server is stopped when its test ends.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/cli_run.hpp"
#include "support/child_process.hpp"
#include "support/cert_files.hpp"
#include "support/nginx_server.hpp"
#include "support/temp_dir.hpp"
#include "support/require_peer.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using test::cli_result;

// The options of a short closed loop: 0.5 s measured, one repeat, replies within 5 s.
std::string short_run(const std::string& json_path) {
  return "--workers 4 --duration 0.5 --warmup 0.1 --repeats 1 --quiet --timeout 5 --out " +
         json_path;
}

std::uint64_t calls(const nlohmann::json& point) {
  std::uint64_t n = 0;
  for (const auto& [name, count] : point["summary"]["outcomes"].items()) n += count.get<std::uint64_t>();
  return n;
}

// The run ended well, wrote its results, and its one point made calls that all succeeded.
void expect_every_call_ok(const cli_result& r) {
  ASSERT_EQ(r.status, 0) << r.out;
  ASSERT_TRUE(r.results.is_object()) << r.out;
  const auto& point = r.results["points"][0];
  EXPECT_GT(point["summary"]["outcomes"]["ok"].get<std::uint64_t>(), 100u);
  EXPECT_EQ(point["summary"]["outcomes"]["ok"].get<std::uint64_t>(), calls(point))
      << point["summary"]["errors"].dump();
}

class nginx_user_calls : public ::testing::Test {
 protected:
  void SetUp() override {
    WIREBENCH_REQUIRE_PEER("nginx", "nginx-light");
    nginx_ = std::make_unique<test::nginx_server>(
        "nginx-user", "    location = /ok { default_type text/plain; return 200 'ok'; }\n", "",
        test::nginx_tls_files{files_.cert(), files_.key()});
    ASSERT_TRUE(nginx_->started()) << "nginx did not start";
  }
  std::string url(int port, const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port) + path;
  }
  std::string json_path(const std::string& name) const { return nginx_->dir().path(name); }
  // Each protocol with the port that speaks it.
  std::vector<std::pair<std::string, int>> protocols() const {
    return {{"http1", nginx_->port()}, {"http2", nginx_->h2c_port()}};
  }
  test::cert_files files_;  // nginx's TLS certificate, which our client verifies
  std::unique_ptr<test::nginx_server> nginx_;
};

TEST_F(nginx_user_calls, a_url_nginx_serves_loses_no_call_over_http1_and_h2c) {
  for (const auto& [protocol, port] : protocols()) {
    const std::string json = json_path(protocol + ".json");
    const auto r = test::run_cli("run -p " + protocol + " --url " + url(port, "/ok") +
                                 " --expect-body ok -H 'Accept: text/plain' " + short_run(json),
                             json);
    SCOPED_TRACE(protocol);
    expect_every_call_ok(r);
    const auto& point = r.results["points"][0];
    EXPECT_EQ(point["parameters"]["requests"][0]["target"], "/ok");
    EXPECT_EQ(point["parameters"]["requests"][0]["expect_body"], "ok");
    EXPECT_EQ(point["parameters"]["transport"], "remote");  // the URL named the server
    EXPECT_NE(r.out.find("request: GET " + url(port, "/ok")), std::string::npos) << r.out;
  }
}

// https:// URLs: TLS (ALPN http/1.1 or h2 on nginx's one TLS port), nginx's certificate verified
// against --tls-ca; a 404 over TLS is a failed call by its status, as in cleartext.
TEST_F(nginx_user_calls, an_https_url_loses_no_call_over_http1_and_http2_and_a_404_is_counted) {
  const std::string https = "https://127.0.0.1:" + std::to_string(nginx_->tls_port());
  for (const char* protocol : {"http1", "http2"}) {
    SCOPED_TRACE(protocol);
    const std::string json = json_path(std::string(protocol) + "-tls.json");
    const auto r = test::run_cli(std::string("run -p ") + protocol + " --url " + https +
                                 "/ok --expect-body ok --tls-ca " + files_.cert() + " " + short_run(json),
                             json);
    expect_every_call_ok(r);
    EXPECT_EQ(r.results["points"][0]["parameters"]["transport"], "remote+tls");
    const std::string missing = json_path(std::string(protocol) + "-tls-404.json");
    const auto m = test::run_cli(std::string("run -p ") + protocol + " --url " + https +
                                 "/missing --tls-ca " + files_.cert() + " " + short_run(missing),
                             missing);
    ASSERT_EQ(m.status, 3) << m.out;  // no call succeeded: the run failed
    const auto& summary = m.results["points"][0]["summary"];
    EXPECT_EQ(summary["outcomes"]["ok"], 0);
    EXPECT_EQ(summary["errors"], (nlohmann::json{{"status_404", calls(m.results["points"][0])}}));
  }
}

TEST_F(nginx_user_calls, a_path_nginx_does_not_serve_is_counted_failed_with_its_404) {
  for (const auto& [protocol, port] : protocols()) {
    const std::string json = json_path(protocol + "-404.json");
    const auto r = test::run_cli("run -p " + protocol + " --url " + url(port, "/missing") +
                                 " " + short_run(json), json);
    ASSERT_EQ(r.status, 3) << r.out;  // no call succeeded: the run failed, its results written
    ASSERT_TRUE(r.results.is_object()) << r.out;
    const auto& summary = r.results["points"][0]["summary"];
    EXPECT_EQ(summary["outcomes"]["ok"], 0) << protocol;
    EXPECT_GT(calls(r.results["points"][0]), 10u) << protocol;
    EXPECT_EQ(summary["errors"], (nlohmann::json{{"status_404", calls(r.results["points"][0])}}))
        << protocol;
    EXPECT_NE(r.out.find("failed calls: status_404="), std::string::npos) << r.out;
  }
}

TEST_F(nginx_user_calls, call_prints_the_body_and_a_404_with_its_status) {
  const auto ok = test::run_cli("call -p http1 --url " + url(nginx_->port(), "/ok") + " -n 2");
  EXPECT_EQ(ok.status, 0);
  EXPECT_EQ(ok.out, "ok\nok\n");
  const auto missing = test::run_cli("call -p http2 --url " + url(nginx_->h2c_port(), "/missing"));
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.out.find("wirebench: call 1 of 1 failed: unexpected status 404 (status_404): 404 <html>"),
            std::string::npos)
      << missing.out;
}

class redis_user_calls : public ::testing::Test {
 protected:
  void SetUp() override {
    WIREBENCH_REQUIRE_PEER("redis-server", "redis-server");
    server_ = protocol_registry::builtin().find("redis-server")->make_server({});
    where_ = server_->local_endpoint().to_string();
  }
  void TearDown() override {
    if (server_) server_->stop();
  }
  std::unique_ptr<protocol_server> server_;
  std::string where_;
  test::temp_dir dir_{"redis-user"};
};

TEST_F(redis_user_calls, set_with_a_key_per_call_and_get_with_an_expected_reply_lose_no_call) {
  const std::string set_json = dir_.path("set.json");
  const auto set = test::run_cli("run -p resp --connect " + where_ +
                                 " --command 'SET k:__rand_int__ \"a value\"' --keyspace 1000000 --depth 4 " +
                                 short_run(set_json),
                             set_json);
  expect_every_call_ok(set);
  const auto& point = set.results["points"][0];
  EXPECT_EQ(point["parameters"]["requests"][0]["args"],
            (nlohmann::json{"SET", "k:__rand_int__", "a value"}));
  // The keys varied per call: redis holds many of them, not one.
  const auto size = test::run_cli("call -p resp --connect " + where_ + " --command DBSIZE");
  ASSERT_EQ(size.status, 0) << size.out;
  ASSERT_TRUE(size.out.starts_with("(integer) ")) << size.out;  // as redis-cli shows an integer
  EXPECT_GT(std::stoull(size.out.substr(10)), 50u) << size.out;

  ASSERT_EQ(test::run_cli("call -p resp --connect " + where_ + " --command 'SET k v'").out, "OK\n");
  const std::string get_json = dir_.path("get.json");
  const auto get = test::run_cli("run -p resp --connect " + where_ + " --command 'GET k' --expect-reply v " +
                                 short_run(get_json),
                             get_json);
  expect_every_call_ok(get);
}

TEST_F(redis_user_calls, an_error_reply_fails_the_call_with_the_servers_words) {
  const auto r = test::run_cli("call -p resp --connect " + where_ + " --command 'NOSUCHCOMMAND x'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("(remote_error): ERR unknown command 'NOSUCHCOMMAND'"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace wirebench
