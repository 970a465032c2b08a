// The client engine on the caller's io_context (client_engine(executor, config)), as an Asio I/O
// object: no thread of its own, every lane and completion on the loop the caller runs; close()
// from a coroutine on that loop returns at once and the loop finishes the closing; the engine
// destroyed with calls in flight and dials under way: each call completes once, nothing is used
// after it is freed (the sanitizer builds run this), and io.run() returns.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/use_awaitable.hpp>
#include <gtest/gtest.h>

#include "mux_pair.hpp"
#include "wirebench/client/async_call.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using test::mux_config;

// A mux server of the tests' handler (mux_pair.hpp), on threads of its own.
struct server_only {
  server_only() {
    session_server_config sc;
    sc.transport.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
    sc.workers = 4;
    mux_session::settings ms;
    ms.dispatch.handler = test::test_handler;
    server = std::make_unique<mux_server>(sc, ms);
  }
  client_engine_config config(std::size_t connections = 1) {
    client_engine_config cc = mux_config();
    cc.connect = server->local_endpoint();
    cc.connections = connections;
    return cc;
  }
  std::unique_ptr<mux_server> server;
};

TEST(engine_on_callers_loop, calls_and_completions_run_on_the_callers_thread) {
  server_only s;
  asio::io_context io;
  client_engine engine(io.get_executor(), s.config(2));
  EXPECT_EQ(engine.get_executor(), io.get_executor());
  std::vector<std::string> replies;
  std::vector<std::thread::id> ran_on;
  for (int i = 0; i < 100; ++i) {
    asio::co_spawn(io, [&, i]() -> asio::awaitable<void> {
      const std::string reply = co_await async_call(engine, "n" + std::to_string(i), 5s, asio::use_awaitable);
      replies.push_back(reply);
      ran_on.push_back(std::this_thread::get_id());
    }, asio::detached);
  }
  // The engine's own callback form: its completion runs on the loop too.
  std::optional<std::thread::id> callback_thread;
  engine.async_call("cb", 5s, [&](std::error_code ec, std::string_view reply) {
    EXPECT_FALSE(ec);
    EXPECT_EQ(reply, "hello, cb");
    callback_thread = std::this_thread::get_id();
  });
  // Closed once every call is answered, from the loop: io.run() then returns by itself.
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    asio::steady_timer wait(io);
    while (replies.size() < 100 || !callback_thread) {
      wait.expires_after(1ms);
      co_await wait.async_wait(asio::use_awaitable);
    }
    engine.close();
  }, asio::detached);
  io.run();
  ASSERT_EQ(replies.size(), 100u);
  for (const auto& id : ran_on) EXPECT_EQ(id, std::this_thread::get_id());
  EXPECT_EQ(callback_thread, std::this_thread::get_id());
  EXPECT_NE(std::find(replies.begin(), replies.end(), "hello, n99"), replies.end());
  EXPECT_EQ(engine.stats().connects, 2u);
}

// close() from the loop with calls in flight: they complete with connection_closed, once each,
// and the loop ends.
TEST(engine_on_callers_loop, close_on_the_loop_fails_what_is_in_flight_and_the_loop_ends) {
  server_only s;
  asio::io_context io;
  client_engine engine(io.get_executor(), s.config());
  int closed = 0, other = 0;
  for (int i = 0; i < 3; ++i)
    engine.async_call("sleep:2000:x", 10s, [&](std::error_code ec, std::string_view) {
      (ec == errc::connection_closed ? closed : other) += 1;
    });
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    co_await async_call(engine, "ann", 5s, asio::use_awaitable);  // the connection is up
    engine.close();  // returns at once; the loop does the rest
  }, asio::detached);
  io.run();
  EXPECT_EQ(closed, 3);
  EXPECT_EQ(other, 0);
}

// The engine destroyed on the loop with calls queued, in flight and a dial under way: every call
// completes once (connection_closed), the lanes outlive the engine until the loop is done.
TEST(engine_on_callers_loop, destroyed_with_work_under_way_every_call_completes_once) {
  server_only s;
  asio::io_context io;
  auto engine = std::make_unique<client_engine>(io.get_executor(), s.config(3));
  int completed = 0;
  for (int i = 0; i < 30; ++i)
    engine->async_call(i % 2 ? "sleep:1000:x" : "y", 10s,
                       [&](std::error_code, std::string_view) { ++completed; });
  asio::post(io, [&] { engine.reset(); });  // before the dials finish
  io.run();
  EXPECT_EQ(completed, 30);
}

}  // namespace
}  // namespace wirebench
