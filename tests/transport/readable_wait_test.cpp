// readable_wait: a wait on a drained socket completes when bytes arrive (and not before), says
// when the event flagged an error, is aborted when the socket closes, and lets its owner go unrun
// when the io_context is destroyed.
#include "../../src/transport/readable_wait.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <memory>

#include <asio/io_context.hpp>
#include <asio/local/stream_protocol.hpp>
#include <gtest/gtest.h>

#include "support/raw_socket.hpp"

namespace wirebench {
namespace {

struct waiter {
  int runs = 0;
  std::error_code ec;
  bool end_flagged = false;
  static void ready(void* self, std::error_code ec, bool end_flagged) {
    auto* w = static_cast<waiter*>(self);
    ++w->runs;
    w->ec = ec;
    w->end_flagged = end_flagged;
  }
};

// A connected pair (AF_UNIX or AF_INET): ours as a stream_socket on ctx, the peer a plain descriptor.
struct asio_and_plain_socket {
  explicit asio_and_plain_socket(asio::io_context& ctx, int family = AF_UNIX) : ours(ctx) {
    int fds[2];
    EXPECT_TRUE(test::connected_pair(family, fds));
    ours.assign(asio::generic::stream_protocol(family, family == AF_INET ? IPPROTO_TCP : 0), fds[0]);
    ours.non_blocking(true);
    peer = fds[1];
  }
  ~asio_and_plain_socket() {
    if (peer >= 0) ::close(peer);
  }
  stream_socket ours;
  int peer = -1;
};

// A drained socket of ours on a one-thread io_context, its peer, a wait, and what it saw.
class readable_wait_test : public ::testing::Test {
 protected:
  asio::io_context ctx{1};
  asio_and_plain_socket s{ctx};
  readable_wait wait{s.ours};
  std::shared_ptr<waiter> w = std::make_shared<waiter>();
};

TEST_F(readable_wait_test, completes_when_bytes_arrive_and_not_before) {
  for (int round = 1; round <= 3; ++round) {  // the same wait, started again after each read
    wait.start(w, &waiter::ready);
    ctx.restart();
    ctx.poll();
    EXPECT_EQ(w->runs, round - 1) << "ran with nothing to read";
    ASSERT_EQ(::write(s.peer, "x", 1), 1);
    ctx.restart();
    ctx.run_one();
    EXPECT_EQ(w->runs, round);
    EXPECT_FALSE(w->ec) << w->ec.message();
    EXPECT_FALSE(w->end_flagged);
    char byte;
    ASSERT_EQ(::read(s.ours.native_handle(), &byte, 1), 1);  // drained again
  }
  EXPECT_EQ(w.use_count(), 1) << "the wait still holds its owner";
}

TEST_F(readable_wait_test, a_peer_that_closes_completes_it) {
  wait.start(w, &waiter::ready);
  ::close(s.peer);
  s.peer = -1;
  ctx.run_one();
  EXPECT_EQ(w->runs, 1);  // readable: the next read sees the end
#ifdef WIREBENCH_READABLE_WAIT_ON_REACTOR  // asio's async_wait passes no flags on
  EXPECT_TRUE(w->end_flagged) << "EPOLLRDHUP was not registered or not passed on";
#endif
  char byte;
  EXPECT_EQ(::read(s.ours.native_handle(), &byte, 1), 0);
}

#ifdef WIREBENCH_READABLE_WAIT_ON_REACTOR
// A reset comes with EPOLLERR and EPOLLHUP: the sign that an error may wait behind the bytes.
TEST(readable_wait_reset, an_event_with_a_reset_is_flagged) {
  asio::io_context ctx{1};
  asio_and_plain_socket s{ctx, AF_INET};
  readable_wait wait(s.ours);
  auto w = std::make_shared<waiter>();
  wait.start(w, &waiter::ready);
  const linger abort_now{1, 0};
  ::setsockopt(s.peer, SOL_SOCKET, SO_LINGER, &abort_now, sizeof abort_now);
  ::close(s.peer);  // RST
  s.peer = -1;
  ctx.run_one();
  EXPECT_EQ(w->runs, 1);
  EXPECT_TRUE(w->end_flagged);
}
#endif

TEST_F(readable_wait_test, closing_the_socket_aborts_it) {
  wait.start(w, &waiter::ready);
  s.ours.close();
  ctx.run_one();
  EXPECT_EQ(w->runs, 1);
  EXPECT_EQ(w->ec, asio::error::operation_aborted);
  EXPECT_EQ(w.use_count(), 1);
}

// As a connection is: owned by its pending wait alone, then its io_context is destroyed.
TEST(readable_wait_owner, a_destroyed_io_context_lets_the_owner_go_without_running_it) {
  struct owner {
    explicit owner(asio::io_context& ctx) : sockets(ctx), wait(sockets.ours) {}
    asio_and_plain_socket sockets;
    readable_wait wait;
  };
  auto runs = std::make_shared<int>(0);
  std::weak_ptr<owner> watch;
  {
    asio::io_context ctx{1};
    auto o = std::make_shared<owner>(ctx);
    watch = o;
    static std::shared_ptr<int> counted;  // what the callback would count (it must not run)
    counted = runs;
    o->wait.start(o, [](void*, std::error_code, bool) { ++*counted; });
    o.reset();
    EXPECT_FALSE(watch.expired()) << "the pending wait holds its owner";
  }
  EXPECT_TRUE(watch.expired());
  EXPECT_EQ(*runs, 0);
}

}  // namespace
}  // namespace wirebench
