// The client side of failure: a server that dies, goes silent, trickles or lies with calls
// pending. Every call completes exactly once, with a typed error, and nothing hangs.
#include <atomic>
#include <thread>

#include <gtest/gtest.h>

#include "support/protocol_cases.hpp"
#include "support/raw_socket.hpp"
#include "support/silent_server.hpp"
#include "support/sync_call.hpp"
#include "support/trickle_server.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

class client_failure : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<protocol_client> client(const endpoint& where,
                                          std::chrono::milliseconds reply_timeout = 10s) {
    client_config cc;
    cc.connect = where;
    cc.reply_timeout = reply_timeout;
    cc.connect_timeout = 2s;
    return protocol_registry::builtin().find(GetParam())->make_client(cc);
  }
};

// Counts completions per call: each must be exactly one, with the expected error.
struct tally {
  explicit tally(int n) : per_call(n) {}
  std::vector<std::atomic<int>> per_call;
  std::atomic<int> done{0};
  std::mutex m;
  std::map<std::string, int> errors;
  void complete(int i, std::error_code ec) {
    ++per_call[i];
    {
      std::lock_guard lock(m);
      ++errors[std::string(error_name(ec))];
    }
    ++done;
  }
  bool wait_all(std::chrono::seconds cap) {
    auto until = std::chrono::steady_clock::now() + cap;
    while (done.load() < static_cast<int>(per_call.size()) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(2ms);
    return done.load() == static_cast<int>(per_call.size());
  }
};

TEST_P(client_failure, server_killed_mid_call_fails_every_pending_call_once) {
  test::silent_server server;
  auto c = client(server.where());
  constexpr int n = 10000;
  tally t(n);
  for (int i = 0; i < n; ++i)
    c->async_greet("x" + std::to_string(i), [&t, i](std::error_code ec, std::string_view) {
      t.complete(i, ec);
    });
  std::this_thread::sleep_for(100ms);  // let the calls reach the wire
  server.kill();
  ASSERT_TRUE(t.wait_all(10s)) << t.done.load() << " of " << n << " completed";
  for (auto& k : t.per_call) ASSERT_EQ(k.load(), 1);
  // Calls in flight are lost with the connection; the calls still waiting for room on it wait
  // for the next one, and the dial for it finds nobody. A client that counts a connection only
  // once its protocol's handshake is done (gRPC's channels; the silent server never answers
  // HTTP/2's) never had one: every call failed to connect.
  if (c->counters().connects > 0) {
    EXPECT_GT(t.errors["connection_closed"], 0);
  }
  EXPECT_EQ(t.errors["connection_closed"] + t.errors["connect_failed"], n);
}

TEST_P(client_failure, silent_server_fails_pending_calls_with_timeout) {
  test::silent_server server;
  auto c = client(server.where(), 200ms);
  tally t(50);
  for (int i = 0; i < 50; ++i)
    c->async_greet("slow", [&t, i](std::error_code ec, std::string_view) { t.complete(i, ec); });
  ASSERT_TRUE(t.wait_all(10s));
  EXPECT_EQ(t.errors["timeout"], 50);
}

// A call's own deadline (an open loop's, for a call that waited to be sent) ends it, not the
// client's reply timeout: grpcpp-stream gave every call a new 10 s from the moment it was made.
TEST_P(client_failure, a_call_ends_at_its_own_deadline_not_at_the_reply_timeout) {
  test::silent_server server;
  auto c = client(server.where(), 10s);
  tally t(20);
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i)
    c->async_greet("slow", {.deadline = start + 300ms},
                   [&t, i](std::error_code ec, std::string_view) { t.complete(i, ec); });
  ASSERT_TRUE(t.wait_all(8s)) << t.done.load() << " of 20 completed";
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s) << "the reply timeout ended them";
  EXPECT_EQ(t.errors["timeout"], 20);
}

TEST_P(client_failure, nobody_listening_is_connect_failed) {
  // A socket path that does not exist: unlike a just-freed TCP port, no parallel test can take it.
  const auto nowhere = endpoint::parse_or_throw("unix:/tmp/wirebench-nobody-" +
                                                std::to_string(::getpid()) + ".sock");
  auto c = client(nowhere);
  auto r = test::greet_sync(*c, "x");
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.ec, errc::connect_failed);
}

// The completion rule (protocol.hpp): a call that fails at once still completes later, on a
// client thread, never inside async_greet; and so does a call made from inside a completion.
// A closed loop that calls again from the completion relies on it.
thread_local bool inside_async_greet = false;

TEST_P(client_failure, a_failed_call_never_completes_inside_async_greet) {
  const auto nowhere = endpoint::parse_or_throw("unix:/tmp/wirebench-nobody-rule-" +
                                                std::to_string(::getpid()) + ".sock");
  auto c = client(nowhere);
  constexpr int chains = 10, links = 5;
  std::atomic<int> inline_completions{0}, done{0};
  std::function<void(int)> call = [&](int left) {
    inside_async_greet = true;
    c->async_greet("x", [&, left](std::error_code ec, std::string_view) {
      if (inside_async_greet) ++inline_completions;
      EXPECT_TRUE(ec);
      ++done;
      if (left > 1) call(left - 1);  // again, from inside the completion
    });
    inside_async_greet = false;
  };
  for (int i = 0; i < chains; ++i) call(links);
  for (int i = 0; i < 2000 && done.load() < chains * links; ++i) std::this_thread::sleep_for(5ms);
  EXPECT_EQ(done.load(), chains * links);
  EXPECT_EQ(inline_completions.load(), 0);
  c->close();
}

TEST_P(client_failure, close_with_calls_pending_completes_them) {
  test::silent_server server;
  auto c = client(server.where());
  tally t(100);
  for (int i = 0; i < 100; ++i)
    c->async_greet("x", [&t, i](std::error_code ec, std::string_view) { t.complete(i, ec); });
  std::this_thread::sleep_for(50ms);
  c->close();
  ASSERT_TRUE(t.wait_all(5s));
  EXPECT_EQ(t.errors["connection_closed"], 100);
}

// Every registered protocol's client.
INSTANTIATE_TEST_SUITE_P(all, client_failure,
                         ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const protocol& p : protocol_registry::builtin().all())
                             names.push_back(p.name);
                           return names;
                         }()),
                         [](const auto& info) { return test::test_name_for(info.param); });

// Protocols whose bytes a test can write by hand (protocol_test_hooks::wire): their clients against a server
// that trickles a reply or declares an absurd one.
class lying_server : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<protocol_client> client(const endpoint& where,
                                          std::chrono::milliseconds reply_timeout) {
    client_config cc;
    cc.connect = where;
    cc.reply_timeout = reply_timeout;
    cc.connect_timeout = 2s;
    return protocol_registry::builtin().find(GetParam())->make_client(cc);
  }
};

// A byte every 100 ms never lets a read time out; the reply (its last byte held back) never
// completes. The call's deadline is a deadline all the same: timeout at 300 ms, not when the
// server stops sending (3 s later).
TEST_P(lying_server, a_trickled_reply_still_times_out_at_the_deadline) {
  std::string reply = test::frame_for(GetParam(), "hello, xxxxxxxxxxxxxxxxxxxx", 2, 1);
  reply.pop_back();
  test::trickle_server server(reply, 100ms);
  auto c = client(server.where(), 300ms);
  const auto start = std::chrono::steady_clock::now();
  auto r = test::greet_sync(*c, "xxxxxxxxxxxxxxxxxxxx");
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.ec, errc::timeout) << r.ec.message();
  EXPECT_LT(took, 2s) << "the call waited for the trickle, not for its deadline";
}

INSTANTIATE_TEST_SUITE_P(all, lying_server, ::testing::ValuesIn(test::protocols_with_wire_bytes()),
                         [](const auto& info) { return test::test_name_for(info.param); });

// A reply that declares 10^8 elements and sends 2000: refused when the count arrives, before
// anything is allocated for it (the async client and the blocking one alike).
TEST(resp_clients, a_reply_declaring_a_hundred_million_elements_is_refused_at_once) {
  std::string lie = "*100000000\r\n";
  for (int i = 0; i < 2000; ++i) lie += "$1\r\na\r\n";
  for (const char* protocol : {"resp", "resp-sync"}) {
    test::trickle_server server(lie, 0ms);
    client_config cc;
    cc.connect = server.where();
    cc.reply_timeout = 5s;
    auto c = protocol_registry::builtin().find(protocol)->make_client(cc);
    auto r = test::greet_sync(*c, "x");
    ASSERT_TRUE(r.completed) << protocol;
    EXPECT_EQ(r.ec, errc::protocol_error) << protocol << ": " << r.ec.message();
  }
}

TEST(line_client, a_name_holding_a_newline_is_refused_not_sent) {
  server_config sc;
  auto server = protocol_registry::builtin().find("line")->make_server(sc);
  client_config cc;
  cc.connect = server->local_endpoint();
  auto c = protocol_registry::builtin().find("line")->make_client(cc);
  auto r = test::greet_sync(*c, "two\nlines");
  EXPECT_EQ(r.ec, errc::invalid_argument);
  EXPECT_EQ(test::greet_sync(*c, "one").reply, "hello, one");
}

TEST(multiplexed_client, a_reply_after_the_timeout_is_counted_late) {
  server_config sc;
  sc.workers = 1;
  sc.service_time = service_time_model::parse("fixed:300ms");
  auto server = protocol_registry::builtin().find("mux")->make_server(sc);
  client_config cc;
  cc.connect = server->local_endpoint();
  cc.reply_timeout = 50ms;
  auto c = protocol_registry::builtin().find("mux")->make_client(cc);
  EXPECT_EQ(c->counters().late_replies, 0u);
  EXPECT_EQ(test::greet_sync(*c, "slow").ec, errc::timeout);
  // The reply comes ~250 ms after the call gave up: counted, not delivered.
  for (int i = 0; i < 500 && c->counters().late_replies == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(c->counters().late_replies, 1u);
  EXPECT_EQ(c->counters().unknown_replies, 0u);
}

}  // namespace
}  // namespace wirebench
