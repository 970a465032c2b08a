// The resp backends end to end: exact replies on the wire, Redis's protocol errors closing only
// the offending connection, pipelining, the two hiredis clients, and interop with redis-cli,
// redis-benchmark and a real redis-server (skipped when those are not installed).

#include <sched.h>

#include <atomic>
#include <cstdio>
#include <thread>

#include <gtest/gtest.h>

#include "support/child_process.hpp"
#include "support/concurrent_calls.hpp"
#include "support/protocol_cases.hpp"
#include "support/raw_socket.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;


// Runs a shell command; its exit status and stdout.
std::pair<int, std::string> run(const std::string& cmd) {
  int status = 0;
  std::string out = test::run_shell(cmd, &status);
  return {status, std::move(out)};
}

class resp_server : public ::testing::Test {
 protected:
  void SetUp() override { server_ = test::start_server("resp", 0, /*threads=*/2); }
  std::unique_ptr<protocol_client> client(const std::string& protocol, std::size_t connections = 1,
                                          std::size_t depth = 0) {
    client_config cc;
    cc.connect = server_->local_endpoint();
    cc.connections = connections;
    cc.depth = depth;
    return protocol_registry::builtin().find(protocol)->make_client(cc);
  }
  // Sends `request` on a new connection; what comes back within a second (the peer may close).
  std::string exchange(const std::string& request, std::size_t want, bool* closed = nullptr) {
    test::raw_socket peer(server_->local_endpoint());
    EXPECT_TRUE(peer.send_all(request));
    std::string got = peer.read_for(5s, want);
    if (closed) *closed = peer.closed_by_peer_within(5s);
    return got;
  }
  void expect_closes(const std::string& reason, std::uint64_t n) {
    for (int i = 0; i < 1000 && server_->stats().close_reasons[reason] < n; ++i) std::this_thread::sleep_for(5ms);
    EXPECT_EQ(server_->stats().close_reasons[reason], n) << reason;
  }
  std::unique_ptr<protocol_server> server_;
};

TEST_F(resp_server, each_command_has_its_exact_reply) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"*2\r\n$5\r\nGREET\r\n$3\r\nbob\r\n", "$10\r\nhello, bob\r\n"},
      {"greet \"two words\"\r\n", "$16\r\nhello, two words\r\n"},
      {"PING\r\n", "+PONG\r\n"},
      {"*2\r\n$4\r\nping\r\n$1\r\nx\r\n", "$1\r\nx\r\n"},
      {"ECHO hi\r\n", "$2\r\nhi\r\n"},
      {"ECHO \"\"\r\n", "$0\r\n\r\n"},
      {"FOO a b\r\n", "-ERR unknown command 'FOO', with args beginning with: 'a' 'b' \r\n"},
      {"*2\r\n$3\r\nF\nO\r\n$3\r\na\rb\r\n", "-ERR unknown command 'F O', with args beginning with: 'a b' \r\n"},
      {"GREET\r\n", "-ERR wrong number of arguments for 'greet' command\r\n"},
      {"GREET a b\r\n", "-ERR wrong number of arguments for 'greet' command\r\n"},
      {"ECHO\r\n", "-ERR wrong number of arguments for 'echo' command\r\n"},
      {"PING a b\r\n", "-ERR wrong number of arguments for 'ping' command\r\n"},
  };
  for (const auto& [request, reply] : cases) EXPECT_EQ(exchange(request, reply.size()), reply) << request;
  const std::string long_args = "FOO " + std::string(100, 'a') + " " + std::string(100, 'b') + " c\r\n";
  const std::string cut = "-ERR unknown command 'FOO', with args beginning with: '" + std::string(100, 'a') +
                          "' '" + std::string(25, 'b') + "' \r\n";  // Redis 7.0.15 says exactly this
  EXPECT_EQ(exchange(long_args, cut.size()), cut);
  EXPECT_EQ(server_->stats().requests, cases.size() + 1);
}

// What client libraries send as they connect, on one connection: HELLO switches to RESP3 and
// back (only HELLO's, CLIENT GETNAME's null and CONFIG GET's shapes change), CLIENT remembers
// the name and library, CONFIG GET answers redis-benchmark's two questions truly.
TEST_F(resp_server, the_connection_handshake_of_client_libraries) {
  test::raw_socket peer(server_->local_endpoint());
  auto say = [&](const std::string& request, const std::string& reply) {
    ASSERT_TRUE(peer.send_all(request));
    EXPECT_EQ(peer.read_for(5s, reply.size()), reply) << request;
  };
  auto hello_reply = [](char map, int entries, int proto, const std::string& id) {
    return std::string(1, map) + std::to_string(entries) +
           "\r\n$6\r\nserver\r\n$9\r\nwirebench\r\n$7\r\nversion\r\n$5\r\n7.0.0\r\n$5\r\nproto\r\n:" +
           std::to_string(proto) + "\r\n$2\r\nid\r\n:" + id +
           "\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n";
  };
  // The connection's id, from CLIENT ID, then checked in every reply that carries it.
  ASSERT_TRUE(peer.send_all("CLIENT ID\r\n"));
  const std::string id_line = peer.read_until_crlf(5s);
  ASSERT_EQ(id_line.front(), ':') << id_line;
  const std::string id = id_line.substr(1, id_line.size() - 3);
  say("CLIENT GETNAME\r\n", "$-1\r\n");
  say("CONFIG GET save\r\n", "*2\r\n$4\r\nsave\r\n$0\r\n\r\n");
  say("CONFIG GET appendonly\r\n", "*2\r\n$10\r\nappendonly\r\n$2\r\nno\r\n");
  say("config get * nothing\r\n",
      "*4\r\n$10\r\nappendonly\r\n$2\r\nno\r\n$4\r\nsave\r\n$0\r\n\r\n");
  say("CONFIG GET maxmemory\r\n", "*0\r\n");
  say("HELLO 3\r\n", hello_reply('%', 7, 3, id));
  say("CLIENT GETNAME\r\n", "_\r\n");
  say("CONFIG GET save\r\n", "%1\r\n$4\r\nsave\r\n$0\r\n\r\n");
  say("GREET bob\r\n", "$10\r\nhello, bob\r\n");  // the same in RESP3
  say("CLIENT SETINFO LIB-NAME redis-py\r\n", "+OK\r\n");
  say("CLIENT SETINFO LIB-VER 8.0.0\r\n", "+OK\r\n");
  say("CLIENT SETNAME worker-1\r\n", "+OK\r\n");
  say("CLIENT GETNAME\r\n", "$8\r\nworker-1\r\n");
  const std::string info = "id=" + id + " name=worker-1 resp=3 lib-name=redis-py lib-ver=8.0.0\n";
  say("CLIENT INFO\r\n", "$" + std::to_string(info.size()) + "\r\n" + info + "\r\n");
  say("HELLO 2 AUTH default secret SETNAME other\r\n", hello_reply('*', 14, 2, id));
  say("CLIENT GETNAME\r\n", "$5\r\nother\r\n");
  say("HELLO\r\n", hello_reply('*', 14, 2, id));  // no version: stays as it is
  // Refusals, in Redis 7's words; none of them changes the connection.
  say("HELLO 4\r\n", "-NOPROTO unsupported protocol version\r\n");
  say("HELLO x\r\n", "-ERR Protocol version is not an integer or out of range\r\n");
  say("HELLO 3 AUTH alice pw\r\n",
      "-WRONGPASS invalid username-password pair or user is disabled.\r\n");
  say("HELLO 3 BOGUS\r\n", "-ERR Syntax error in HELLO option 'BOGUS'\r\n");
  say("*3\r\n$6\r\nCLIENT\r\n$7\r\nSETNAME\r\n$3\r\na b\r\n",
      "-ERR Client names cannot contain spaces, newlines or special characters.\r\n");
  say("CLIENT KILL x\r\n", "-ERR unknown subcommand 'KILL'. Try CLIENT HELP.\r\n");
  say("CLIENT\r\n", "-ERR wrong number of arguments for 'client' command\r\n");
  say("CONFIG SET save x\r\n", "-ERR unknown subcommand 'SET'. Try CONFIG HELP.\r\n");
  say("CONFIG GET\r\n", "-ERR wrong number of arguments for 'config|get' command\r\n");
  say("CLIENT GETNAME\r\n", "$5\r\nother\r\n");
  // Each connection has its own id.
  test::raw_socket other(server_->local_endpoint());
  ASSERT_TRUE(other.send_all("CLIENT ID\r\n"));
  EXPECT_NE(other.read_until_crlf(5s), id_line);
}

TEST_F(resp_server, quit_answers_ok_then_closes) {
  bool closed = false;
  EXPECT_EQ(exchange("PING\r\nQUIT\r\nPING\r\n", SIZE_MAX, &closed), "+PONG\r\n+OK\r\n");
  EXPECT_TRUE(closed);
  expect_closes("peer_closed", 1);
}

TEST_F(resp_server, protocol_errors_reply_close_that_connection_and_spare_the_others) {
  auto good = client("resp");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"*x\r\n", "invalid multibulk length"},
      {"*2000000\r\n", "invalid multibulk length"},
      {"*1\r\n$-1\r\n", "invalid bulk length"},
      {"*1\r\n$65537\r\n", "invalid bulk length"},  // max_frame_bytes
      {"*2\r\n$4\r\nECHO\r\nx3\r\n", "expected '$', got 'x'"},
      {"ECHO \"abc\r\n", "unbalanced quotes in request"},
      {std::string(70000, 'A'), "too big inline request"},
  };
  std::uint64_t n = 0;
  for (const auto& [request, why] : cases) {
    bool closed = false;
    const std::string expected = "+PONG\r\n-ERR Protocol error: " + why + "\r\n";
    EXPECT_EQ(exchange("PING\r\n" + request, SIZE_MAX, &closed), expected);
    EXPECT_TRUE(closed) << why;
    expect_closes("protocol_error", ++n);
    EXPECT_EQ(test::greet_sync(*good, "good").reply, "hello, good");
  }
}

TEST_F(resp_server, a_thousand_pipelined_commands_in_one_write_are_answered_in_order) {
  std::string requests, replies;
  for (int i = 0; i < 1000; ++i) {
    const std::string name = "n" + std::to_string(i);
    requests += "*2\r\n$5\r\nGREET\r\n$" + std::to_string(name.size()) + "\r\n" + name + "\r\n";
    replies += "$" + std::to_string(name.size() + 7) + "\r\nhello, " + name + "\r\n";
  }
  EXPECT_EQ(exchange(requests, replies.size()), replies);
  EXPECT_EQ(server_->stats().requests, 1000u);
}

TEST_F(resp_server, a_declared_huge_command_is_held_by_what_arrives_then_refused_at_the_limits) {
  test::raw_socket peer(server_->local_endpoint());
  // A million arguments declared (under the limit) and none sent: nothing is allocated for them.
  ASSERT_TRUE(peer.send_all("*1000000\r\n$3\r\nfoo\r\n"));
  auto good = client("resp");
  EXPECT_EQ(test::greet_sync(*good, "still").reply, "hello, still");
  // A gigabyte declared: over max_frame_bytes, refused before a byte of it is read.
  ASSERT_TRUE(peer.send_all("$1000000000\r\n"));
  EXPECT_EQ(peer.read_for(5s, SIZE_MAX), "-ERR Protocol error: invalid bulk length\r\n");
  expect_closes("protocol_error", 1);
}

TEST_F(resp_server, a_client_past_the_query_bound_is_closed_without_a_reply) {
  test::raw_socket peer(server_->local_endpoint());
  // Arguments each under the bulk limit, but together over the 1 MiB query bound.
  std::string big = "*100\r\n";
  for (int i = 0; i < 20; ++i) big += "$60000\r\n" + std::string(60000, 'x') + "\r\n";
  peer.send_all(big);
  bool eof = false;
  EXPECT_EQ(peer.read_for(5s, SIZE_MAX, &eof), "");
  EXPECT_TRUE(eof);
  expect_closes("frame_too_long", 1);
}

// 2000 calls from 4 threads, each completing exactly once with the right greeting.
TEST_F(resp_server, pipelined_client_2000_calls_from_4_threads_complete_once) {
  auto c = client("resp", 2, 8);
  test::expect_each_call_completes_once(*c);
}

TEST_F(resp_server, sync_client_2000_calls_from_4_threads_complete_once) {
  auto c = client("resp-sync", 4);
  test::expect_each_call_completes_once(*c);
}

TEST_F(resp_server, sync_client_close_completes_queued_calls) {
  auto c = client("resp-sync", 1);
  std::atomic<int> done{0};
  for (int i = 0; i < 500; ++i) c->async_greet("q", [&](std::error_code, std::string_view) { ++done; });
  c->close();
  EXPECT_EQ(done.load(), 500);
  auto after = test::greet_sync(*c, "late");
  EXPECT_EQ(after.ec, errc::connection_closed);
}

TEST_F(resp_server, redis_cli_gets_the_greeting_and_pong) {
  WIREBENCH_REQUIRE_PEER("redis-cli", "redis-tools");
  const std::string cli = "redis-cli -h 127.0.0.1 -p " + std::to_string(server_->local_endpoint().port);
  EXPECT_EQ(run(cli + " GREET x"), (std::pair<int, std::string>{0, "hello, x\n"}));
  EXPECT_EQ(run(cli + " PING"), (std::pair<int, std::string>{0, "PONG\n"}));
  EXPECT_EQ(run(cli + " ECHO 'a b'"), (std::pair<int, std::string>{0, "a b\n"}));
}

TEST_F(resp_server, redis_benchmark_runs_ping_and_greet) {
  WIREBENCH_REQUIRE_PEER("redis-benchmark", "redis-tools");
  const std::string bench = "redis-benchmark -h 127.0.0.1 -p " + std::to_string(server_->local_endpoint().port) +
                            " -n 2000 -c 4 -P 8 -q";
  const auto ping = run(bench + " -t ping 2>&1");
  EXPECT_EQ(ping.first, 0) << ping.second;
  EXPECT_NE(ping.second.find("PING_INLINE"), std::string::npos) << ping.second;
  EXPECT_NE(ping.second.find("PING_MBULK"), std::string::npos) << ping.second;
  const auto greet = run(bench + " GREET foo 2>&1");
  EXPECT_EQ(greet.first, 0) << greet.second;
  // It asks CONFIG GET save and appendonly first, and warns when it cannot have them.
  EXPECT_EQ(greet.second.find("WARNING"), std::string::npos) << greet.second;
  EXPECT_NE(greet.second.find("GREET foo"), std::string::npos) << greet.second;
  // Every command was served: 2000 of each kind, plus whatever redis-benchmark asks first.
  EXPECT_GE(server_->stats().requests, 6000u);
  EXPECT_EQ(server_->stats().close_reasons["protocol_error"], 0u);
}

// redis-py with its default settings (RESP3 since redis-py 8) and with RESP2. A PyPI package, not
// a Debian one: the test skips, naming it, where python3 cannot import redis-py 5 or later.
TEST_F(resp_server, redis_py_works_with_its_default_settings) {
  const auto probe =
      run("python3 -c 'import redis, sys; sys.exit(int(redis.__version__.split(\".\")[0]) < 5)' 2>&1");
  if (probe.first != 0)
    GTEST_SKIP() << "redis-py 5 or later not importable by python3 (pip install redis)";
  const auto r = run(std::string("python3 ") + WIREBENCH_REDIS_PY_CLIENT + " " +
                     std::to_string(server_->local_endpoint().port) + " 2>&1");
  EXPECT_EQ(r.first, 0) << r.second;
  EXPECT_NE(r.second.find("protocol default resp=3: ok"), std::string::npos) << r.second;
  EXPECT_NE(r.second.find("protocol 2 resp=2: ok"), std::string::npos) << r.second;
}

// A real redis-server on loopback, stopped (and reaped) by the test.
class redis_server_reference : public ::testing::Test {
 protected:
  void SetUp() override {
    WIREBENCH_REQUIRE_PEER("redis-server", "redis-server");
    server = protocol_registry::builtin().find("redis-server")->make_server(server_config{});
  }
  std::unique_ptr<protocol_server> server;
};

TEST_F(redis_server_reference, our_clients_against_a_real_redis_server) {
  client_config cc;
  cc.connect = server->local_endpoint();
  cc.connections = 2;
  cc.depth = 8;
  auto c = protocol_registry::builtin().find("redis-server")->make_client(cc);
  test::expect_each_call_completes_once(*c);
  EXPECT_EQ(server->stats().requests, 2000u);
  server->stop();
  server->stop();  // idempotent; the process is reaped
  auto after = test::greet_sync(*c, "after");  // dials again, and finds nobody
  EXPECT_TRUE(after.ec == errc::connect_failed || after.ec == errc::connection_closed)
      << after.ec.message();
}

TEST_F(redis_server_reference, the_real_server_answers_greet_as_an_unknown_command) {
  client_config cc;
  cc.connect = server->local_endpoint();
  for (const char* client : {"resp", "resp-sync"}) {  // both send GREET
    auto c = protocol_registry::builtin().find(client)->make_client(cc);
    auto r = test::greet_sync(*c, "x");
    EXPECT_EQ(r.ec, errc::remote_error) << client;
    EXPECT_EQ(r.reply, "ERR unknown command 'GREET', with args beginning with: 'x' ") << client;
  }
}

// server_config::cpus pins the real server too, so a placement (the floor table's cross-CPU
// rows, `run --server-cpus`) holds for it as for ours.
TEST(redis_server_placement, server_cpus_pin_the_real_server) {
  cpu_set_t ours;
  ASSERT_EQ(sched_getaffinity(0, sizeof ours, &ours), 0);
  if (CPU_COUNT(&ours) < 2) GTEST_SKIP() << "needs two CPUs to tell a pinned server apart";
  int last = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &ours)) last = cpu;
  server_config sc;
  sc.cpus = {last};
  WIREBENCH_REQUIRE_PEER("redis-server", "redis-server");
  auto server = protocol_registry::builtin().find("redis-server")->make_server(sc);
  test::raw_socket peer(server->local_endpoint());
  ASSERT_TRUE(peer.send_all("INFO server\r\nQUIT\r\n"));
  const std::string info = peer.read_for(5s);
  const auto at = info.find("process_id:");
  ASSERT_NE(at, std::string::npos) << info;
  const pid_t pid = std::stoi(info.substr(at + 11));
  cpu_set_t theirs;
  ASSERT_EQ(sched_getaffinity(pid, sizeof theirs, &theirs), 0);
  EXPECT_EQ(CPU_COUNT(&theirs), 1);
  EXPECT_TRUE(CPU_ISSET(last, &theirs));
  server->stop();
}

}  // namespace
}  // namespace wirebench
