// What a client takes and shows of a reply, as a user meets it. --max-reply: replies over 64 KiB
// (what every client once refused) are taken by default from servers we did not write (Python's
// http.server on HTTP/1.1, nghttpd on HTTP/2, redis-server on RESP), and a limit set below a
// reply fails its call with frame_too_long, which the run names with the flag that lifts it.
// And `call` shows a RESP reply as redis-cli does, byte for byte.
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "support/child_process.hpp"
#include "support/cli_run.hpp"
#include "support/require_peer.hpp"
#include "support/temp_dir.hpp"

namespace wirebench {
namespace {

constexpr std::size_t big = 100'000;  // over the old 64 KiB, under the 4 MiB default

// A folder whose big.bin is `big` bytes of 'x'.
struct big_file_dir : test::temp_dir {
  big_file_dir() : temp_dir("max-reply") { std::ofstream(path("big.bin")) << std::string(big, 'x'); }
};

// A redis-server of the test's own on a loopback port, saving nothing, stopped with the test.
struct redis_server {
  test::temp_dir dir{"redis"};
  int port = test::free_loopback_port();
  test::child_process process{{"redis-server", "--port", std::to_string(port), "--bind", "127.0.0.1", "--save", "",
                               "--appendonly", "no", "--dir", dir.str()},
                              dir.path("redis.out"), dir.path("redis.out")};
};

// `call` of `url` over `protocol`, with `more` flags: its status and output.
test::cli_result call(const std::string& protocol, const std::string& url, const std::string& more = "") {
  return test::run_cli("call -p " + protocol + " --url " + url + " " + more);
}

void expect_taken_and_limited(const std::string& protocol, const std::string& url) {
  const test::cli_result whole = call(protocol, url);
  EXPECT_EQ(whole.status, 0) << whole.out.substr(0, 500);
  EXPECT_NE(whole.out.find(std::string(big, 'x')), std::string::npos) << "the body, whole";
  const test::cli_result cut = call(protocol, url, "--max-reply 64KiB");
  EXPECT_EQ(cut.status, 1);
  EXPECT_NE(cut.out.find("frame_too_long"), std::string::npos) << cut.out.substr(0, 500);
  // And in a run: every call failed, the run says why and which flag lifts the limit.
  const test::cli_result run =
      test::run_cli("run -p " + protocol + " --url " + url + " --max-reply 64KiB -w 1 --warmup 0 -D 0.2 -R 1 -q");
  EXPECT_EQ(run.status, 3) << run.out;
  EXPECT_NE(run.out.find("frame_too_long: a reply over the client's --max-reply (raise it)"), std::string::npos)
      << run.out;
  EXPECT_EQ(test::run_cli("call -p " + protocol + " --url " + url + " --max-reply 12").status, 2)
      << "under 1KiB is refused";
}

TEST(call_replies, http1_takes_a_100kb_reply_from_pythons_http_server) {
  big_file_dir dir;
  const int port = test::free_loopback_port();
  test::child_process server({test::debian_python3, "-m", "http.server", std::to_string(port), "--bind", "127.0.0.1",
                              "--directory", dir.str()},
                             dir.path("server.out"), dir.path("server.out"));
  ASSERT_TRUE(test::wait_for_listener(port));
  expect_taken_and_limited("http1", "http://127.0.0.1:" + std::to_string(port) + "/big.bin");
}

TEST(call_replies, http2_takes_a_100kb_reply_from_nghttpd) {
  WIREBENCH_REQUIRE_PEER("nghttpd", "nghttp2-server");
  big_file_dir dir;
  const int port = test::free_loopback_port();
  test::child_process server({"nghttpd", "--no-tls", "-d", dir.str(), std::to_string(port)});
  ASSERT_TRUE(test::wait_for_listener(port));
  expect_taken_and_limited("http2", "http://127.0.0.1:" + std::to_string(port) + "/big.bin");
}

TEST(call_replies, resp_takes_a_100kb_value_from_redis_server) {
  WIREBENCH_REQUIRE_PEER("redis-server", "redis-server");
  const redis_server redis;
  ASSERT_TRUE(test::wait_for_listener(redis.port));
  const std::string at = " -c tcp://127.0.0.1:" + std::to_string(redis.port);
  ASSERT_EQ(test::run_cli("call -p resp" + at + " --command 'SET big " + std::string(big, 'x') + "'").status, 0);
  const test::cli_result whole = test::run_cli("call -p resp" + at + " --command 'GET big'");
  EXPECT_EQ(whole.status, 0) << whole.out.substr(0, 500);
  EXPECT_NE(whole.out.find(std::string(big, 'x')), std::string::npos);
  const test::cli_result cut = test::run_cli("call -p resp" + at + " --command 'GET big' --max-reply 64KiB");
  EXPECT_EQ(cut.status, 1);
  EXPECT_NE(cut.out.find("frame_too_long"), std::string::npos) << cut.out.substr(0, 500);
}

// Arrays (nested, empty), integers, nil, quoted strings with escapes: `call` prints what
// `redis-cli --no-raw` prints for the same command on the same server.
TEST(call_replies, resp_replies_are_shown_as_redis_cli_shows_them) {
  WIREBENCH_REQUIRE_PEER("redis-server", "redis-server");
  WIREBENCH_REQUIRE_PEER("redis-cli", "redis-tools");
  const redis_server redis;
  ASSERT_TRUE(test::wait_for_listener(redis.port));
  const std::string at = " -c tcp://127.0.0.1:" + std::to_string(redis.port);
  const std::string cli = "redis-cli --no-raw -p " + std::to_string(redis.port) + " ";
  ASSERT_EQ(test::run_cli("call -p resp" + at + " --command 'RPUSH l a \"q w\" \"t\\tx\" 12'").status, 0);
  ASSERT_EQ(test::run_cli("call -p resp" + at + " --command 'HSET h f1 v1 f2 v2'").status, 0);
  for (const std::string command : {"LRANGE l 0 -1", "LRANGE none 0 -1", "COMMAND INFO GET", "HGETALL h", "LLEN l",
                                    "LINDEX l 2", "GET none", "SET s v",
                                    "SCAN 0 COUNT 100"}) {
    SCOPED_TRACE(command);
    int status = -1;
    std::string theirs = test::run_shell(cli + command, &status);
    ASSERT_EQ(status, 0) << theirs;
    while (!theirs.empty() && theirs.back() == '\n') theirs.pop_back();
    const test::cli_result ours = test::run_cli("call -p resp" + at + " --command '" + command + "'");
    EXPECT_EQ(ours.status, 0) << ours.out;
    std::string shown = ours.out;
    while (!shown.empty() && shown.back() == '\n') shown.pop_back();
    EXPECT_EQ(shown, theirs);
  }
}

}  // namespace
}  // namespace wirebench
