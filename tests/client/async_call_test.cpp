// async_call (client/async_call.hpp): the engine's calls with completion tokens, as Asio's own
// operations behave: a future, coroutines resumed on their own thread, errors as exceptions,
// cancellation through a slot and a timer race (errc::canceled, == std::errc::
// operation_canceled); and Asio's rules: a handler never runs inside the initiating call (a
// retry loop on a closed engine does not recurse), runs on its associated executor (never on an
// engine thread unless it has none), is allocated with its associated allocator and freed
// first; close() from a completion on an engine thread.
#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <asio/bind_allocator.hpp>
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

#include "mux_pair.hpp"
#include "support/counting_allocator.hpp"
#include "wirebench/client/async_call.hpp"
#include "wirebench/core/error_condition.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using test::eventually;
using test::mux_pair;

TEST(async_call, a_future_gets_the_reply_or_the_error) {
  mux_pair p;
  std::future<std::string> ok = async_call(*p.client, "ann", 5s, asio::use_future);
  EXPECT_EQ(ok.get(), "hello, ann");
  // The error as a value (use_future with a function): an exception_ptr handed between threads
  // is a race to ThreadSanitizer, which cannot see libstdc++'s reference counting.
  std::future<std::error_code> late = async_call(
      *p.client, "sleep:300:x", 20ms, asio::use_future([](std::error_code ec, std::string) { return ec; }));
  EXPECT_EQ(late.get(), errc::timeout);
}

TEST(async_call, coroutines_make_calls_in_flight_and_resume_on_their_own_thread) {
  using namespace asio::experimental::awaitable_operators;
  mux_pair p;
  asio::io_context ctx;
  std::vector<std::string> replies;
  std::thread::id resumed_on;
  auto caller = [&]() -> asio::awaitable<void> {
    // Three calls in flight on one connection, the slow one first: the others do not wait for it.
    auto [a, b, c] = co_await (async_call(*p.client, "sleep:50:slow", 5s, asio::use_awaitable) &&
                               async_call(*p.client, "b", 5s, asio::use_awaitable) &&
                               async_call(*p.client, "c", 5s, asio::use_awaitable));
    resumed_on = std::this_thread::get_id();
    replies = {a, b, c};
    try {
      co_await async_call(*p.client, "error", 5s, asio::use_awaitable);
    } catch (const std::system_error& e) {
      replies.push_back(e.code() == errc::remote_error ? "remote_error" : e.code().message());
    }
  };
  asio::co_spawn(ctx, caller(), asio::detached);
  ctx.run();
  EXPECT_EQ(resumed_on, std::this_thread::get_id()) << "resumed on the engine's thread";
  EXPECT_EQ(replies, (std::vector<std::string>{"slow", "hello, b", "hello, c", "remote_error"}));
}

TEST(async_call, a_slot_cancels_a_sent_call_and_a_timer_race_cancels_another) {
  using namespace asio::experimental::awaitable_operators;
  mux_pair p;
  asio::io_context ctx;
  asio::cancellation_signal cancel;
  std::optional<std::error_code> slot_result;
  async_call(*p.client, "sleep:500:x", 10s,
             asio::bind_executor(ctx, asio::bind_cancellation_slot(
                                          cancel.slot(), [&](std::error_code ec, std::string) {
                                            slot_result = ec;
                                          })));
  ASSERT_TRUE(eventually([&] { return p.server->stats().requests == 1; }));
  asio::post(ctx, [&] { cancel.emit(asio::cancellation_type::terminal); });  // on the handler's executor
  bool timer_won = false;
  auto racer = [&]() -> asio::awaitable<void> {
    asio::steady_timer timer(ctx, 30ms);
    auto r = co_await (async_call(*p.client, "sleep:500:y", 10s, asio::use_awaitable) ||
                       timer.async_wait(asio::use_awaitable));
    timer_won = r.index() == 1;
  };
  asio::co_spawn(ctx, racer(), asio::detached);
  ctx.run();
  ASSERT_TRUE(slot_result.has_value());
  EXPECT_EQ(*slot_result, errc::canceled);
  EXPECT_EQ(*slot_result, std::errc::operation_canceled);
  EXPECT_EQ(*slot_result, condition::canceled);
  EXPECT_TRUE(timer_won);
  EXPECT_EQ(p.client->stats().late, 0u);
}


// True on a thread while it is inside async_call() in the test below: a completion that runs
// inline sees it set; one posted to another thread sees that thread's, false, however the two
// threads interleave (a shared flag cleared after the call raced with a fast other thread).
thread_local bool initiating = false;

// A plain callback (no executor of its own) runs on the engine's thread that completed the call,
// not inside async_call(); on a closed engine, which has no thread, it is posted elsewhere.
TEST(async_call, a_plain_callback_runs_on_an_engine_thread_never_inline) {
  mux_pair p;
  std::promise<std::thread::id> ran_on;
  std::atomic<bool> ran_inline{false};
  initiating = true;
  async_call(*p.client, "ann", 5s, [&](std::error_code ec, std::string reply) {
    ran_inline = initiating;
    EXPECT_FALSE(ec);
    EXPECT_EQ(reply, "hello, ann");
    ran_on.set_value(std::this_thread::get_id());
  });
  initiating = false;
  const std::thread::id engine_thread = ran_on.get_future().get();
  EXPECT_NE(engine_thread, std::this_thread::get_id());
  EXPECT_FALSE(ran_inline.load());

  p.client->close();
  std::promise<std::error_code> closed;
  initiating = true;
  async_call(*p.client, "bob", 5s, [&](std::error_code ec, std::string) {
    ran_inline = initiating;
    closed.set_value(ec);
  });
  initiating = false;
  EXPECT_EQ(closed.get_future().get(), errc::connection_closed);
  EXPECT_FALSE(ran_inline.load()) << "completed inside async_call on a closed engine";
}

// A handler bound to an io_context runs there, never inline: a loop that retries at once on
// every error, against a closed engine, does not recurse, and each failure is its own turn.
TEST(async_call, a_retry_loop_on_a_closed_engine_does_not_recurse) {
  mux_pair p;
  p.client->close();
  asio::io_context ctx;
  int depth = 0, deepest = 0, failures = 0;
  std::function<void()> attempt = [&] {
    async_call(*p.client, "x", 5s, asio::bind_executor(ctx, [&](std::error_code ec, std::string) {
                 deepest = std::max(deepest, ++depth);
                 EXPECT_EQ(ec, errc::connection_closed);
                 if (++failures < 1000) attempt();
                 --depth;
               }));
  };
  attempt();
  EXPECT_EQ(failures, 0) << "ran inside async_call";
  ctx.run();
  EXPECT_EQ(failures, 1000);
  EXPECT_EQ(deepest, 1);
}

// Bound to an io_context run here, handlers run on this thread only, every one of them.
TEST(async_call, a_bound_handler_runs_on_its_executor_not_the_engines) {
  mux_pair p;
  asio::io_context ctx;
  std::vector<std::thread::id> ran_on;
  std::vector<std::string> replies;
  for (int i = 0; i < 50; ++i)
    async_call(*p.client, "n" + std::to_string(i), 5s,
               asio::bind_executor(ctx, [&](std::error_code ec, std::string reply) {
                 EXPECT_FALSE(ec);
                 ran_on.push_back(std::this_thread::get_id());
                 replies.push_back(std::move(reply));
               }));
  ctx.run();  // the calls keep ctx's work counted until they complete
  ASSERT_EQ(replies.size(), 50u);
  for (const auto& id : ran_on) EXPECT_EQ(id, std::this_thread::get_id());
  EXPECT_NE(std::find(replies.begin(), replies.end(), "hello, n49"), replies.end());
}

// The handler's allocator holds the call, and what the call and its post to the executor took
// is freed before the handler runs (Asio's order) and in the end. (The io_context's own executor
// takes an allocator; asio::any_io_executor, a coroutine's, does not.)
TEST(async_call, the_handlers_allocator_holds_the_call) {
  mux_pair p;
  asio::io_context ctx;
  test::allocation_counts counts;
  auto handler = [&](std::error_code ec, std::string) {
    EXPECT_FALSE(ec);
    EXPECT_EQ(counts.allocations.load(), counts.deallocations.load()) << "not freed before the handler";
  };
  async_call(*p.client, "a", 5s,
             asio::bind_executor(ctx, asio::bind_allocator(test::counting_allocator<char>(counts), handler)));
  ctx.run();
  EXPECT_GE(counts.allocations.load(), 1);
  int done = 0;
  for (int i = 0; i < 20; ++i)
    async_call(*p.client, "b", 5s,
               asio::bind_executor(ctx, asio::bind_allocator(test::counting_allocator<char>(counts),
                                                             [&](std::error_code, std::string) { ++done; })));
  ctx.restart();
  ctx.run();
  EXPECT_EQ(done, 20);
  EXPECT_GE(counts.allocations.load(), 21);
  EXPECT_EQ(counts.allocations.load(), counts.deallocations.load());
}

// close() from a completion, on an engine thread: no exception; every call still in flight
// completes once (connection_closed); the destructor, elsewhere, joins.
TEST(async_call, close_from_a_completion_on_an_engine_thread) {
  mux_pair p;
  std::atomic<int> slow_done{0};
  std::promise<std::error_code> slow_result;
  for (int i = 0; i < 3; ++i)  // fewer than the server's 4 workers: "ann" is answered at once
    p.client->async_call("sleep:2000:late", 10s, [&](std::error_code ec, std::string_view) {
      if (slow_done.fetch_add(1) == 0) slow_result.set_value(ec);
    });
  std::promise<bool> closed_without_throwing;
  async_call(*p.client, "ann", 5s, [&](std::error_code, std::string) {
    try {
      p.client->close();
      closed_without_throwing.set_value(true);
    } catch (...) {
      closed_without_throwing.set_value(false);
    }
  });
  EXPECT_TRUE(closed_without_throwing.get_future().get());
  EXPECT_EQ(slow_result.get_future().get(), errc::connection_closed);
  p.client.reset();  // joins the threads, after every completion ran
  EXPECT_EQ(slow_done.load(), 3);
}

}  // namespace
}  // namespace wirebench
