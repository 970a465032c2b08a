// The client engine with the mux codec against our mux server, end to end: out-of-order replies,
// deadlines and late replies, cancel before and after send, the in-flight cap, drain,
// disconnect with 10 000 calls pending. (Re-dial and re-send: client_redial_test.cpp; the call
// with completion tokens: async_call_test.cpp.)
#include <atomic>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/awaitable_operators.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <asio/use_future.hpp>
#include <gtest/gtest.h>

#include "support/call_collector.hpp"
#include "support/raw_socket.hpp"
#include "support/silent_server.hpp"
#include "wirebench/core/error.hpp"
#include "mux_pair.hpp"
#include "wirebench/client/client_engine.hpp"
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_session.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;
using collector = test::call_collector;
using test::eventually;
using test::mux_config;
using test::mux_pair;
using test::one_in_flight;


TEST(client_engine, replies_come_back_out_of_order_on_one_connection) {
  mux_pair p;
  collector c;
  p.client->async_call("sleep:300:slow", p.in(10s), c.track("slow"));
  p.client->async_call("fast1", p.in(10s), c.track("fast1"));
  p.client->async_call("fast2", p.in(10s), c.track("fast2"));
  ASSERT_TRUE(c.wait_for(3));
  EXPECT_EQ(c.order.back(), "slow");
  EXPECT_EQ(c.get("fast1").reply, "hello, fast1");
  EXPECT_EQ(c.get("slow").reply, "slow");
}

TEST(client_engine, ordered_mode_holds_fast_replies_behind_a_slow_one) {
  client_engine_config cc = mux_config(reply_order::in_order);
  mux_session::settings ms;
  ms.dispatch.ordered = true;
  mux_pair p(cc, ms);
  collector c;
  p.client->async_call("sleep:200:slow", p.in(10s), c.track("slow"));
  p.client->async_call("fast", p.in(10s), c.track("fast"));
  ASSERT_TRUE(c.wait_for(2));
  EXPECT_EQ(c.order, (std::vector<std::string>{"slow", "fast"}));
  EXPECT_EQ(c.get("fast").reply, "hello, fast");
}

TEST(client_engine, deadline_expires_then_the_late_reply_is_counted) {
  mux_pair p;
  collector c;
  const auto t0 = clock_type::now();
  p.client->async_call("sleep:300:late", p.in(50ms), c.track("late"));
  ASSERT_TRUE(c.wait_for(1));
  EXPECT_EQ(c.get("late").ec, errc::timeout);
  EXPECT_LT(clock_type::now() - t0, 250ms) << "the deadline, not the reply, ended the call";
  EXPECT_TRUE(eventually([&] { return p.client->stats().late == 1; }));
  EXPECT_EQ(p.client->stats().unknown, 0u);
}

// Keep-alive: a server that takes the connection and then answers nothing (a stopped process, a
// dead path: TCP reports neither) is found by the unanswered ping long before the call's deadline,
// and a new connection is dialed.
TEST(client_engine, a_server_that_answers_no_ping_fails_its_calls_with_keepalive_timeout) {
  test::silent_server silent;
  client_engine_config cc = mux_config();
  cc.connect = silent.where();
  cc.keepalive = {.interval = 100ms, .timeout = 100ms};
  client_engine client(cc);
  collector c;
  const auto t0 = clock_type::now();
  client.async_call("x", clock_type::now() + 10s, c.track("x"));
  ASSERT_TRUE(c.wait_for(1));
  EXPECT_EQ(c.get("x").ec, errc::keepalive_timeout);
  EXPECT_LT(clock_type::now() - t0, 5s) << "the ping, not the deadline, ended the call";
  // The next call dials again (the silent server's backlog takes it) and ends the same way.
  client.async_call("y", clock_type::now() + 10s, c.track("y"));
  ASSERT_TRUE(c.wait_for(2));
  EXPECT_EQ(c.get("y").ec, errc::keepalive_timeout);
  EXPECT_EQ(client.stats().connects, 2u);
}

// A slow call on a live server: the server's event loop answers each ping while its worker
// works, so keep-alive never mistakes slow for dead.
TEST(client_engine, keepalive_pings_answered_while_a_slow_call_runs_keep_the_connection) {
  client_engine_config cc = mux_config();
  cc.keepalive = {.interval = 50ms, .timeout = 100ms};
  mux_pair p(cc);
  collector c;
  p.client->async_call("sleep:600:slow", p.in(5s), c.track("slow"));
  ASSERT_TRUE(c.wait_for(1));
  EXPECT_FALSE(c.get("slow").ec) << c.get("slow").ec.message();
  EXPECT_EQ(c.get("slow").reply, "slow");
  EXPECT_EQ(p.client->stats().connects, 1u);
  EXPECT_EQ(p.client->stats().reconnects, 0u);
}

TEST(client_engine, cancel_before_send_never_reaches_the_server) {
  client_engine_config cc = mux_config();
  cc.max_in_flight = 1;
  mux_pair p(cc);
  collector c;
  p.client->async_call("sleep:200:first", p.in(10s), c.track("first"));
  auto queued = p.client->async_call_cancelable("second", p.in(10s), c.track("second"));
  queued.cancel();
  ASSERT_TRUE(c.wait_for(2));
  EXPECT_EQ(c.order.front(), "second");
  EXPECT_EQ(c.get("second").ec, errc::canceled);
  EXPECT_EQ(c.get("first").reply, "first");
  EXPECT_EQ(p.server->stats().requests, 1u);
  queued.cancel();  // after completion: nothing happens
}

TEST(client_engine, cancel_after_send_completes_at_once_and_the_server_drops_the_reply) {
  mux_pair p;
  collector c;
  auto call = p.client->async_call_cancelable("sleep:500:x", p.in(10s), c.track("x"));
  ASSERT_TRUE(eventually([&] { return p.server->stats().requests == 1; }));
  const auto t0 = clock_type::now();
  call.cancel();
  ASSERT_TRUE(c.wait_for(1));
  EXPECT_EQ(c.get("x").ec, errc::canceled);
  EXPECT_LT(clock_type::now() - t0, 200ms);
  // The reply is computed but not sent: no late reply ever shows up.
  std::this_thread::sleep_for(700ms);
  EXPECT_EQ(p.client->stats().late, 0u);
  EXPECT_EQ(p.client->stats().unknown, 0u);
  EXPECT_EQ(c.get("x").ec, errc::canceled);
}

// Over the in-flight cap, calls wait in the queue: one is sent when room frees, one whose deadline
// passes while it waits times out without being sent, and one over the queue is rejected.
TEST(client_engine, over_the_cap_calls_queue_time_out_unsent_or_are_rejected) {
  mux_pair p(one_in_flight(2));
  collector c;
  p.client->async_call("sleep:300:a", p.in(10s), c.track("a"));
  p.client->async_call("b", p.in(10s), c.track("b"));
  p.client->async_call("c", p.in(50ms), c.track("c"));
  p.client->async_call("d", p.in(10s), c.track("d"));
  ASSERT_TRUE(c.wait_for(4));
  EXPECT_EQ(c.get("a").reply, "a");
  EXPECT_EQ(c.get("b").reply, "hello, b");
  EXPECT_EQ(c.get("c").ec, errc::timeout);
  EXPECT_EQ(c.get("d").ec, errc::rejected);
  EXPECT_EQ(p.client->stats().rejected, 1u);
  EXPECT_EQ(p.server->stats().requests, 2u) << "the call that timed out in the queue was never sent";
}

TEST(client_engine, without_a_queue_a_call_over_the_cap_fails_at_once) {
  mux_pair p(one_in_flight(0));
  collector c;
  p.client->async_call("sleep:100:a", p.in(10s), c.track("a"));
  p.client->async_call("b", p.in(10s), c.track("b"));
  ASSERT_TRUE(c.wait_for(2));
  EXPECT_EQ(c.order.front(), "b");
  EXPECT_EQ(c.get("b").ec, errc::rejected);
}

TEST(client_engine, error_replies_carry_the_servers_reason) {
  mux_pair p;
  collector c;
  p.client->async_call("error", p.in(10s), c.track("e"));
  ASSERT_TRUE(c.wait_for(1));
  EXPECT_EQ(c.get("e").ec, errc::remote_error);
  EXPECT_NE(c.get("e").reply.find("rejected"), std::string::npos) << c.get("e").reply;
}

TEST(client_engine, calls_from_many_threads_share_one_connection) {
  mux_pair p;
  constexpr int threads = 4, each = 500;
  std::atomic<int> right{0}, done{0};
  std::vector<std::thread> callers;
  for (int t = 0; t < threads; ++t)
    callers.emplace_back([&, t] {
      for (int i = 0; i < each; ++i) {
        std::string name = std::to_string(t) + "-" + std::to_string(i);
        p.client->async_call(name, p.in(10s), [&, name](std::error_code ec, std::string_view r) {
          right += !ec && r == "hello, " + name;
          ++done;
        });
      }
    });
  for (auto& t : callers) t.join();
  ASSERT_TRUE(eventually([&] { return done == threads * each; }, 10s));
  EXPECT_EQ(right.load(), threads * each);
  EXPECT_EQ(p.server->stats().accepted, 1u);
}

// A call made on one of the engine's loops goes to a lane of that loop's thread: a load driver
// that runs there (the open loop) never crosses a thread. Loops without a lane are not offered.
TEST(client_engine, a_call_made_on_an_engine_loop_stays_on_that_loops_lanes) {
  client_engine_config cc = mux_config();
  cc.threads = 3;
  cc.connections = 2;  // threads 0 and 1 own a lane each; thread 2 owns none
  mux_pair p(cc);
  const auto loops = p.client->loops();
  ASSERT_EQ(loops.size(), 2u);
  for (asio::io_context* loop : loops) {
    std::promise<std::thread::id> made_on;
    std::promise<std::thread::id> completed_on;
    asio::post(*loop, [&] {
      made_on.set_value(std::this_thread::get_id());
      p.client->async_call("x", p.in(10s), [&](std::error_code ec, std::string_view) {
        EXPECT_FALSE(ec);
        completed_on.set_value(std::this_thread::get_id());
      });
    });
    EXPECT_EQ(made_on.get_future().get(), completed_on.get_future().get());
  }
  EXPECT_EQ(p.server->stats().accepted, 2u);
}

TEST(client_engine, drain_answers_what_is_in_flight_then_closes) {
  mux_pair p;
  collector c;
  for (const char* tag : {"a", "b", "c"})
    p.client->async_call(std::string("sleep:150:") + tag, p.in(10s), c.track(tag));
  ASSERT_TRUE(eventually([&] { return p.server->stats().requests == 3; }));
  p.server->stop();  // returns once drained
  ASSERT_TRUE(c.wait_for(3));
  for (const char* tag : {"a", "b", "c"}) {
    EXPECT_FALSE(c.get(tag).ec) << tag << ": " << c.get(tag).ec.message();
    EXPECT_EQ(c.get(tag).reply, tag);
  }
  // The server is gone: the engine dials again for this call, and that dial fails.
  p.client->async_call("after", p.in(10s), c.track("after"));
  ASSERT_TRUE(c.wait_for(4));
  EXPECT_EQ(c.get("after").ec, errc::connect_failed);
  EXPECT_EQ(p.server->stats().close_reasons.at("shutting_down"), 1u);
}

TEST(client_engine, server_at_its_in_flight_cap_pauses_reading_and_loses_nothing) {
  mux_session::settings ms;
  ms.max_in_flight = 2;
  ms.max_frame_bytes = 256;  // a read buffer far smaller than the burst below
  ms.dispatch.service_time = service_time_model::parse("fixed:2ms");
  mux_pair p(mux_config(), ms);
  constexpr int n = 300;  // ~6 KB of requests in flight against a ~270-byte read buffer
  std::atomic<int> ok{0}, done{0};
  for (int i = 0; i < n; ++i) {
    const std::string name = "n" + std::to_string(i);
    p.client->async_call(name, p.in(30s), [&, name](std::error_code ec, std::string_view r) {
      ok += !ec && r == "hello, " + name;
      ++done;
    });
  }
  ASSERT_TRUE(eventually([&] { return done == n; }, 20s)) << done.load();
  EXPECT_EQ(ok.load(), n);
  EXPECT_TRUE(p.server->stats().close_reasons.empty()) << "the connection must not be dropped";
}

TEST(client_engine, disconnect_with_ten_thousand_calls_pending_fails_each_once) {
  test::silent_server server;
  client_engine_config cc = mux_config();
  cc.connect = server.where();
  cc.max_in_flight = 20000;
  client_engine client(cc);
  constexpr int n = 10000;
  std::vector<std::atomic<int>> completions(n);
  std::atomic<int> closed{0}, done{0};
  for (int i = 0; i < n; ++i)
    client.async_call("x", clock_type::now() + 60s, [&, i](std::error_code ec, std::string_view) {
      ++completions[i];
      closed += ec == errc::connection_closed;
      ++done;
    });
  std::this_thread::sleep_for(100ms);
  server.kill();
  ASSERT_TRUE(eventually([&] { return done == n; }, 10s)) << done.load();
  EXPECT_EQ(closed.load(), n);
  for (auto& k : completions) ASSERT_EQ(k.load(), 1);
}

TEST(client_engine, malformed_frames_close_that_connection_only) {
  mux_pair p;
  collector c;
  for (std::string bad : {std::string("\x00\x00\x00\x05\x09\x00\x00\x00\x01", 9),  // type 9
                          std::string("\x00\x00\x00\x02\x01\x00", 6),              // short header
                          std::string("\x7f\xff\xff\xff", 4)}) {                    // 2 GiB frame
    test::raw_socket peer(p.server->local_endpoint());
    peer.send_all(bad);
    EXPECT_TRUE(peer.closed_by_peer_within(5s));
  }
  p.client->async_call("good", p.in(10s), c.track("good"));
  ASSERT_TRUE(c.wait_for(1));
  EXPECT_EQ(c.get("good").reply, "hello, good");
  auto reasons = p.server->stats().close_reasons;
  EXPECT_EQ(reasons["protocol_error"], 2u);
  EXPECT_EQ(reasons["frame_too_long"], 1u);
}

}  // namespace
}  // namespace wirebench
