// mux_rpc_server end to end with the client engine: round trip, many calls in flight answered
// out of order, error replies (returned and thrown), cancel frames reaching the coroutine, and a
// connection dropped under running coroutines. Each with and without a worker pool where the
// handlers share no state.
#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <asio/experimental/as_tuple.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/this_coro.hpp>
#include <asio/use_awaitable.hpp>
#include <gtest/gtest.h>

#include "support/call_collector.hpp"
#include "support/raw_socket.hpp"
#include "wirebench/client/client_engine.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_rpc_session.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

using collector = test::call_collector;

struct rpc_pair {
  rpc_pair(rpc_handler handler, std::size_t workers) {
    session_server_config sc;
    sc.transport.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
    sc.transport.grace = 2s;
    sc.workers = workers;
    server = std::make_unique<mux_rpc_server>(sc, mux_rpc_session::settings{.handler = std::move(handler)});
    client_engine_config cc;
    cc.connect = server->local_endpoint();
    cc.codec = [] { return make_mux_client_codec(1 << 20); };
    client = std::make_unique<client_engine>(cc);
  }
  static clock_type::time_point in(std::chrono::seconds d) { return clock_type::now() + d; }
  std::unique_ptr<mux_rpc_server> server;
  std::unique_ptr<client_engine> client;
};

// Waits on a timer that never expires by itself; true if it was canceled (by a cancel frame or
// the connection closing), as opposed to ended for another reason.
asio::awaitable<bool> park() {
  asio::steady_timer forever(co_await asio::this_coro::executor, clock_type::time_point::max());
  const auto [ec] = co_await forever.async_wait(asio::experimental::as_tuple(asio::use_awaitable));
  co_return ec == asio::error::operation_aborted;
}

class mux_rpc : public ::testing::TestWithParam<std::size_t> {};  // the worker threads
INSTANTIATE_TEST_SUITE_P(workers, mux_rpc, ::testing::Values(0, 2));

TEST_P(mux_rpc, a_call_gets_the_reply_its_coroutine_returns) {
  rpc_pair p([](std::string request) -> asio::awaitable<rpc_reply> {
    // A suspension, so the reply really is the end of a coroutine that waited.
    asio::steady_timer t(co_await asio::this_coro::executor, 1ms);
    co_await t.async_wait(asio::use_awaitable);
    co_return "hello, " + request;
  }, GetParam());
  collector c;
  p.client->async_call("ann", p.in(20s), c.track("ann"));
  p.client->async_call("", p.in(20s), c.track("empty"));
  ASSERT_TRUE(c.wait_for(2, 20s));
  EXPECT_FALSE(c.get("ann").ec);
  EXPECT_EQ(c.get("ann").reply, "hello, ann");
  EXPECT_EQ(c.get("empty").reply, "hello, ");
  p.client->close();
  p.server->stop();
  EXPECT_EQ(p.server->stats().requests, 2u);
}

TEST_P(mux_rpc, returned_and_thrown_errors_become_error_replies) {
  rpc_pair p([](std::string request) -> asio::awaitable<rpc_reply> {
    if (request == "returned") co_return rpc_reply(errc::rejected, "no such name");
    if (request == "bare") co_return rpc_reply(errc::rejected);
    if (request == "thrown") throw std::runtime_error("boom");
    if (request == "big") co_return std::string((1 << 20) + 1, 'x');
    co_return request;
  }, GetParam());
  collector c;
  for (const char* tag : {"returned", "bare", "thrown", "big", "fine"})
    p.client->async_call(tag, p.in(20s), c.track(tag));
  ASSERT_TRUE(c.wait_for(5, 20s));
  EXPECT_EQ(c.get("returned").ec, errc::remote_error);
  EXPECT_EQ(c.get("returned").reply, "no such name");
  EXPECT_EQ(c.get("bare").reply, make_error_code(errc::rejected).message());
  EXPECT_EQ(c.get("thrown").ec, errc::remote_error);
  EXPECT_EQ(c.get("thrown").reply, "boom");
  EXPECT_EQ(c.get("big").ec, errc::remote_error);
  EXPECT_EQ(c.get("big").reply, "frame_too_long");
  EXPECT_FALSE(c.get("fine").ec);  // the connection outlives its calls' errors
  EXPECT_EQ(c.get("fine").reply, "fine");
}

// All N calls are running at once (once the last has arrived and is waiting, call N-1's gate
// opens; each call opens the next lower one as it ends), so the replies come back in exactly
// reverse order. Every handler suspends, so each one's end takes the same path through co_spawn.
TEST(mux_rpc_order, many_calls_in_flight_end_in_the_order_their_coroutines_do) {
  constexpr int n = 64;
  struct gate {
    bool open = false;
    asio::steady_timer* timer = nullptr;
    void release() {
      open = true;
      if (timer != nullptr) timer->cancel();
    }
  };
  auto gates = std::make_shared<std::vector<gate>>(n);
  auto arrived = std::make_shared<int>(0);
  // No workers: every handler runs on the one connection's thread, so they share `gates`.
  rpc_pair p([gates, arrived](std::string request) -> asio::awaitable<rpc_reply> {
    const int i = std::stoi(request);
    // The executor first, not as an argument beside the lambda: GCC 12 destroys temporaries of
    // a full expression holding a co_await twice.
    const auto executor = co_await asio::this_coro::executor;
    asio::steady_timer timer(executor, clock_type::time_point::max());
    (*gates)[i].timer = &timer;
    if (++*arrived == n) asio::post(executor, [gates] { (*gates)[n - 1].release(); });
    if (!(*gates)[i].open) co_await timer.async_wait(asio::experimental::as_tuple(asio::use_awaitable));
    (*gates)[i].timer = nullptr;
    if (i > 0) (*gates)[i - 1].release();
    co_return "reply " + request;
  }, 0);
  collector c;
  for (int i = 0; i < n; ++i)
    p.client->async_call(std::to_string(i), p.in(20s), c.track(std::to_string(i)));
  ASSERT_TRUE(c.wait_for(n, 20s));
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(c.order[i], std::to_string(n - 1 - i));
    EXPECT_EQ(c.get(std::to_string(i)).reply, "reply " + std::to_string(i));
  }
}

TEST_P(mux_rpc, a_cancel_frame_cancels_the_running_coroutine) {
  auto started = std::make_shared<std::promise<void>>();
  auto saw_cancel = std::make_shared<std::promise<bool>>();
  rpc_pair p([started, saw_cancel](std::string request) -> asio::awaitable<rpc_reply> {
    if (request != "park") co_return request;
    started->set_value();
    const bool canceled = co_await park();
    saw_cancel->set_value(canceled);
    co_return "too late";
  }, GetParam());
  collector c;
  auto handle = p.client->async_call_cancelable("park", p.in(20s), c.track("park"));
  ASSERT_EQ(started->get_future().wait_for(20s), std::future_status::ready);
  handle.cancel();
  auto canceled = saw_cancel->get_future();
  ASSERT_EQ(canceled.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(canceled.get());
  p.client->async_call("after", p.in(20s), c.track("after"));
  ASSERT_TRUE(c.wait_for(2, 20s));
  EXPECT_EQ(c.get("park").ec, errc::canceled);
  EXPECT_EQ(c.get("after").reply, "after");
  p.client->close();
  EXPECT_EQ(p.client->stats().late, 0u);  // the canceled call's reply was never sent
}

// A mux frame (docs/PROTOCOLS.md), written by hand: length, type (1 request, 2 reply), id, payload.
std::string mux_frame_bytes(char type, std::uint32_t id, const std::string& payload) {
  std::string frame;
  for (const std::uint32_t n : {static_cast<std::uint32_t>(payload.size() + 5), id}) {
    for (int shift = 24; shift >= 0; shift -= 8) frame += static_cast<char>(n >> shift);
    if (frame.size() == 4) frame += type;
  }
  return frame + payload;
}

// A request whose id is still running could not be told apart in its reply: the stream is lost
// (protocol_error), after the call running has been answered, as for any bad input.
TEST_P(mux_rpc, a_second_call_with_a_running_id_closes_the_connection) {
  auto calls = std::make_shared<std::atomic<int>>(0);
  rpc_pair p([calls](std::string request) -> asio::awaitable<rpc_reply> {
    ++*calls;
    asio::steady_timer wait(co_await asio::this_coro::executor, 100ms);
    co_await wait.async_wait(asio::use_awaitable);
    co_return "done " + request;
  }, GetParam());
  test::raw_socket peer(p.server->local_endpoint());
  ASSERT_TRUE(peer.send_all(mux_frame_bytes(1, 7, "first") + mux_frame_bytes(1, 7, "second")));
  const std::string reply = mux_frame_bytes(2, 7, "done first");
  EXPECT_EQ(peer.read_for(20s, reply.size()), reply);
  EXPECT_TRUE(peer.closed_by_peer_within(20s));
  EXPECT_EQ(calls->load(), 1);
  // Counted once the connection's close has run on its thread, which may be after the peer saw it.
  for (int i = 0; i < 2000 && p.server->stats().close_reasons.empty(); ++i)
    std::this_thread::sleep_for(1ms);
  const auto reasons = p.server->stats().close_reasons;
  ASSERT_EQ(reasons.size(), 1u);
  EXPECT_EQ(reasons.begin()->first, "protocol_error");
}

// The client goes away with calls running: each coroutine is canceled, ends, and releases its
// connection (ASan's leak check and use-after-free detection are the rest of the assertion).
TEST_P(mux_rpc, a_dropped_connection_cancels_every_running_coroutine) {
  constexpr int n = 20;
  auto started = std::make_shared<std::atomic<int>>(0);
  auto canceled = std::make_shared<std::atomic<int>>(0);
  rpc_pair p([started, canceled](std::string) -> asio::awaitable<rpc_reply> {
    ++*started;
    if (co_await park()) ++*canceled;
    co_return "never sent";
  }, GetParam());
  collector c;
  for (int i = 0; i < n; ++i) p.client->async_call(std::to_string(i), p.in(20s), c.track(std::to_string(i)));
  const auto until = clock_type::now() + 20s;
  while (*started < n && clock_type::now() < until) std::this_thread::sleep_for(1ms);
  ASSERT_EQ(*started, n);
  p.client->close();
  ASSERT_TRUE(c.wait_for(n, 20s));
  for (int i = 0; i < n; ++i) EXPECT_EQ(c.get(std::to_string(i)).ec, errc::connection_closed);
  while (*canceled < n && clock_type::now() < until) std::this_thread::sleep_for(1ms);
  EXPECT_EQ(*canceled, n);
  p.server->stop();
}

}  // namespace
}  // namespace wirebench
