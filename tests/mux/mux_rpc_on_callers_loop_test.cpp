// mux_rpc_server and the client engine both on the caller's io_context (their executor
// constructors): a whole RPC service on one thread; stop() from the loop drains a call under way
// (its reply still goes out) and the loop ends; a handler that outlives the grace is cut and its
// call fails once; the server destroyed with a connection open leaves nothing running on the
// loop (the sanitizer builds run this); a worker pool is refused there.
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <asio/co_spawn.hpp>
#include <asio/detached.hpp>
#include <asio/experimental/as_tuple.hpp>
#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <gtest/gtest.h>

#include "wirebench/client/async_call.hpp"
#include "wirebench/client/client_engine.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_rpc_session.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

// "wait:MS:TEXT" answers TEXT after MS ms of a timer; anything else is greeted at once. Records
// the thread every handler ran on.
struct recording_handler {
  std::vector<std::thread::id>* threads;
  asio::awaitable<rpc_reply> operator()(std::string request) const {
    threads->push_back(std::this_thread::get_id());
    if (request.starts_with("wait:")) {
      const auto colon = request.find(':', 5);
      const auto ms = std::chrono::milliseconds(std::stoi(request.substr(5, colon - 5)));
      asio::steady_timer t(co_await asio::this_coro::executor, ms);
      co_await t.async_wait(asio::use_awaitable);
      co_return request.substr(colon + 1);
    }
    co_return "hello, " + request;
  }
};

session_server_config loopback(std::chrono::milliseconds grace = 5000ms) {
  session_server_config sc;
  sc.transport.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  sc.transport.grace = grace;
  return sc;
}

client_engine_config client_of(const mux_rpc_server& server) {
  client_engine_config cc;
  cc.connect = server.local_endpoint();
  cc.codec = [] { return make_mux_client_codec(1 << 20); };
  return cc;
}

// On `io`: a first call (the connection is up), then `request` as a call of its own (its error,
// or none, into `ended`; the engine closes after it), and 20 ms into that call, while the server
// runs it, `then()`.
template <class Then>
void while_a_call_runs(asio::io_context& io, client_engine& engine, std::string request,
                       std::optional<std::error_code>& ended, Then then) {
  asio::co_spawn(io, [&, request, then]() -> asio::awaitable<void> {
    co_await async_call(engine, "up", 5s, asio::use_awaitable);
    asio::co_spawn(io, [&, request]() -> asio::awaitable<void> {
      auto [ec, reply] = co_await async_call(engine, request, 20s,
                                             asio::experimental::as_tuple(asio::use_awaitable));
      ended = ec;
      engine.close();
    }, asio::detached);
    asio::steady_timer t(io, 20ms);
    co_await t.async_wait(asio::use_awaitable);
    then();
  }, asio::detached);
}

TEST(mux_rpc_on_callers_loop, a_whole_service_runs_on_one_thread) {
  asio::io_context io;
  std::vector<std::thread::id> handler_threads;
  mux_rpc_server server(io.get_executor(), loopback(), {.handler = recording_handler{&handler_threads}});
  client_engine engine(io.get_executor(), client_of(server));
  int correct = 0;
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    for (int i = 0; i < 200; ++i) {
      const std::string reply = co_await async_call(engine, std::to_string(i), 5s, asio::use_awaitable);
      correct += reply == "hello, " + std::to_string(i);
    }
    engine.close();
    server.stop();  // on the loop: returns at once, the loop ends the drain
  }, asio::detached);
  io.run();  // returns once the engine and the server have nothing left on it
  EXPECT_EQ(correct, 200);
  ASSERT_EQ(handler_threads.size(), 200u);
  for (const auto& id : handler_threads) EXPECT_EQ(id, std::this_thread::get_id());
  EXPECT_EQ(server.stats().requests, 200u);
}

// stop() with a call under way: its reply goes out within the grace, then the connection closes.
TEST(mux_rpc_on_callers_loop, stop_on_the_loop_drains_a_call_under_way) {
  asio::io_context io;
  std::vector<std::thread::id> threads;
  mux_rpc_server server(io.get_executor(), loopback(), {.handler = recording_handler{&threads}});
  client_engine engine(io.get_executor(), client_of(server));
  std::optional<std::string> slow;
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    co_await async_call(engine, "up", 5s, asio::use_awaitable);  // connected
    asio::co_spawn(io, [&]() -> asio::awaitable<void> {
      slow = co_await async_call(engine, "wait:100:slow", 5s, asio::use_awaitable);
      engine.close();
    }, asio::detached);
    asio::steady_timer t(io, 20ms);  // the slow call is running in the server
    co_await t.async_wait(asio::use_awaitable);
    server.stop();
  }, asio::detached);
  io.run();
  EXPECT_EQ(slow, "slow");
  EXPECT_EQ(server.stats().grace_finished, 1u);
  EXPECT_EQ(server.stats().grace_cut, 0u);
}

// A handler that outlives the grace is cut: the connection closes, its call fails once.
TEST(mux_rpc_on_callers_loop, a_call_past_the_grace_is_cut) {
  asio::io_context io;
  std::vector<std::thread::id> threads;
  mux_rpc_server server(io.get_executor(), loopback(50ms), {.handler = recording_handler{&threads}});
  client_engine_config cc = client_of(server);
  client_engine engine(io.get_executor(), cc);
  std::optional<std::error_code> cut;
  while_a_call_runs(io, engine, "wait:10000:never", cut, [&] { server.stop(); });
  const auto started = std::chrono::steady_clock::now();
  io.run();
  ASSERT_TRUE(cut.has_value());
  EXPECT_TRUE(*cut) << "the call past the grace succeeded";
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s) << "waited for the handler, not the grace";
  EXPECT_EQ(server.stats().grace_cut, 1u);
}

// The server destroyed on the loop with a connection open and a call running: the connection
// closes, the call fails once, and io.run() returns.
TEST(mux_rpc_on_callers_loop, destroyed_with_a_call_running_leaves_nothing_behind) {
  asio::io_context io;
  std::vector<std::thread::id> threads;
  auto server = std::make_unique<mux_rpc_server>(io.get_executor(), loopback(0ms),
                                                 mux_rpc_session::settings{.handler = recording_handler{&threads}});
  client_engine engine(io.get_executor(), client_of(*server));
  std::optional<std::error_code> ended;
  while_a_call_runs(io, engine, "wait:10000:never", ended, [&] { server.reset(); });
  io.run();
  ASSERT_TRUE(ended.has_value());
  EXPECT_TRUE(*ended) << "the call on the destroyed server succeeded";
}

TEST(mux_rpc_on_callers_loop, a_worker_pool_is_refused) {
  asio::io_context io;
  std::vector<std::thread::id> threads;
  session_server_config sc = loopback();
  sc.workers = 2;
  EXPECT_THROW(mux_rpc_server(io.get_executor(), sc, {.handler = recording_handler{&threads}}),
               std::invalid_argument);
}

}  // namespace
}  // namespace wirebench
