#include "wirebench/transport/io_pool.hpp"

#include <atomic>
#include <future>
#include <set>
#include <thread>

#include <asio/post.hpp>
#include <gtest/gtest.h>

namespace wirebench {
namespace {

io_pool_options threads(std::size_t n, std::vector<int> cpus = {}) {
  io_pool_options o;
  o.threads = n;
  o.cpus = std::move(cpus);
  return o;
}

TEST(io_pool, runs_each_context_on_its_own_thread) {
  io_pool pool(threads(3));
  ASSERT_EQ(pool.size(), 3u);
  std::mutex m;
  std::set<std::thread::id> ids;
  std::atomic<int> done{0};
  for (std::size_t i = 0; i < pool.size(); ++i)
    for (int k = 0; k < 10; ++k)
      asio::post(pool.context(i), [&] {
        std::lock_guard lock(m);
        ids.insert(std::this_thread::get_id());
        ++done;
      });
  while (done.load() < 30) std::this_thread::yield();
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids.count(std::this_thread::get_id()), 0u);
}

TEST(io_pool, next_is_round_robin) {
  io_pool pool(threads(2));
  auto* a = &pool.next();
  auto* b = &pool.next();
  auto* c = &pool.next();
  EXPECT_NE(a, b);
  EXPECT_EQ(a, c);
}

TEST(io_pool, stop_is_idempotent_and_joins) {
  io_pool pool(threads(2));
  pool.stop();
  pool.stop();
  EXPECT_TRUE(pool.context(0).stopped());
  EXPECT_TRUE(pool.context(1).stopped());
}

// stop() on one of the pool's threads asks every loop to stop and returns (a thread cannot join
// itself); the next stop() from elsewhere joins.
TEST(io_pool, stop_from_a_pool_thread_asks_and_a_later_stop_joins) {
  io_pool pool(threads(2));
  std::promise<void> asked;
  asio::post(pool.context(0), [&] {
    pool.stop();
    asked.set_value();
  });
  asked.get_future().get();
  pool.stop();
  EXPECT_TRUE(pool.context(0).stopped());
  EXPECT_TRUE(pool.context(1).stopped());
}

TEST(io_pool, pins_threads_when_asked) {
  io_pool pool(threads(1, {0}));
  std::promise<int> cpu;
  asio::post(pool.context(0), [&] { cpu.set_value(sched_getcpu()); });
  EXPECT_EQ(cpu.get_future().get(), 0);
}

TEST(cpu_list, parses_lists_and_ranges) {
  EXPECT_EQ(parse_cpu_list("0"), (std::vector<int>{0}));
  EXPECT_EQ(parse_cpu_list("0,1"), (std::vector<int>{0, 1}));
  EXPECT_EQ(parse_cpu_list("0-3"), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(parse_cpu_list("1,4-5"), (std::vector<int>{1, 4, 5}));
  EXPECT_THROW(parse_cpu_list("x"), std::invalid_argument);
  EXPECT_THROW(parse_cpu_list("3-1"), std::invalid_argument);
  EXPECT_THROW(parse_cpu_list("1,"), std::invalid_argument);
}

}  // namespace
}  // namespace wirebench
