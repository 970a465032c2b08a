// session_server with small test sessions and raw peer sockets: the request count sessions keep,
// the worker pool only for a session that takes one, the read buffer the session asks for, and a
// graceful stop that waits for work on the pool. Also connection_server's start(): no listening before.
#include "wirebench/server/session_server.hpp"

#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include <asio/post.hpp>
#include <gtest/gtest.h>

#include "support/raw_socket.hpp"
#include "wirebench/codec/bytes.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

session_server_config loopback(std::size_t workers = 0) {
  session_server_config c;
  c.transport.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  c.transport.grace = 5s;
  c.workers = workers;
  return c;
}

// Echoes each line and counts it; a line "skip" is answered and not counted. Lines are limited
// only by the read buffer the settings ask for.
class echo_session : public server_session {
 public:
  struct settings {
    std::size_t read_bytes = 1024;
  };
  static std::size_t max_read_bytes(const settings& s) { return s.read_bytes; }
  explicit echo_session(const settings&) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data, std::error_code&) override {
    const std::string_view text = as_text(data);
    std::size_t consumed = 0;
    for (std::size_t end; (end = text.find('\n', consumed)) != std::string_view::npos;
         consumed = end + 1) {
      const std::string_view line = text.substr(consumed, end - consumed);
      if (line != "skip") count_requests(1);
      c.send({}, std::string(line) + "\n", {});
    }
    return consumed;
  }
  void on_close(connection&, std::error_code) override {}
};

// Takes a worker pool: each line is answered from a worker after `delay`, and says whether the
// session was given a pool at all.
class worker_session : public server_session {
 public:
  struct settings {
    std::chrono::milliseconds delay{0};
  };
  static std::size_t max_read_bytes(const settings&) { return 1024; }
  worker_session(const settings& s, asio::thread_pool* workers)
      : delay_(s.delay), workers_(workers) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data, std::error_code&) override {
    const auto newline = as_text(data).find('\n');
    if (newline == std::string_view::npos) return 0;
    count_requests(1);
    if (workers_ == nullptr) {
      c.send({}, std::string("inline\n"), {});
      return newline + 1;
    }
    ++in_flight_;
    asio::post(*workers_, [this, conn = c.shared_from_this()] {
      std::this_thread::sleep_for(delay_);
      asio::post(conn->executor(), [this, conn] {
        --in_flight_;
        conn->send({}, std::string("worker\n"), {});
        conn->work_finished();
      });
    });
    return newline + 1;
  }
  void on_close(connection&, std::error_code) override {}
  std::size_t calls_in_flight() const override { return in_flight_; }

 private:
  std::chrono::milliseconds delay_;
  asio::thread_pool* workers_;
  std::size_t in_flight_ = 0;
};

static_assert(!session_server<echo_session>::takes_workers);
static_assert(session_server<worker_session>::takes_workers);

TEST(session_server, counts_what_sessions_count_over_many_reads_and_connections) {
  session_server<echo_session> server(loopback(), {});
  test::raw_socket a(server.local_endpoint()), b(server.local_endpoint());
  a.send_all("one\ntwo\nskip\n");
  EXPECT_EQ(a.read_for(5s, 13), "one\ntwo\nskip\n");
  b.send_all("three\n");
  EXPECT_EQ(b.read_for(5s, 6), "three\n");
  a.send_all("four\n");
  EXPECT_EQ(a.read_for(5s, 5), "four\n");
  const server_stats s = server.stats();
  EXPECT_EQ(s.requests, 4u);
  EXPECT_EQ(s.accepted, 2u);
  EXPECT_EQ(s.active, 2u);
}

TEST(session_server, the_read_buffer_is_the_sessions) {
  session_server<echo_session> server(loopback(), {.read_bytes = 16});
  test::raw_socket peer(server.local_endpoint());
  peer.send_all("123456789012345\n");
  EXPECT_EQ(peer.read_for(5s, 16), "123456789012345\n");
  peer.send_all(std::string(64, 'x'));  // a line the buffer cannot hold: the connection closes
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  for (int i = 0; i < 500 && server.stats().active != 0; ++i) std::this_thread::sleep_for(5ms);
  EXPECT_EQ(server.stats().close_reasons.at("frame_too_long"), 1u);
}

TEST(session_server, a_session_that_takes_workers_gets_the_pool_only_when_there_is_one) {
  {
    session_server<worker_session> server(loopback(0), {});
    test::raw_socket peer(server.local_endpoint());
    peer.send_all("x\n");
    EXPECT_EQ(peer.read_for(5s, 7), "inline\n");
  }
  session_server<worker_session> server(loopback(2), {});
  test::raw_socket peer(server.local_endpoint());
  peer.send_all("x\n");
  EXPECT_EQ(peer.read_for(5s, 7), "worker\n");
  EXPECT_EQ(server.stats().requests, 1u);
}

TEST(session_server, stop_answers_work_still_on_the_pool_then_joins_it) {
  session_server<worker_session> server(loopback(1), {.delay = 200ms});
  test::raw_socket peer(server.local_endpoint());
  peer.send_all("x\n");
  for (int i = 0; i < 500 && server.stats().requests == 0; ++i) std::this_thread::sleep_for(1ms);
  server.stop();  // the reply is due: the drain waits for it
  EXPECT_EQ(peer.read_for(5s, 7), "worker\n");
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  EXPECT_EQ(server.stats().close_reasons.at("shutting_down"), 1u);
  EXPECT_EQ(server.stats().grace_finished, 1u);
  EXPECT_EQ(server.stats().grace_cut, 0u);
  server.stop();  // idempotent
}

class session_server_grace : public ::testing::TestWithParam<std::chrono::milliseconds> {};

// A grace shorter than the work (0: none at all): the connection closes without the reply.
TEST_P(session_server_grace, a_grace_that_ends_first_cuts_the_work_and_counts_it) {
  auto config = loopback(1);
  config.transport.grace = GetParam();
  session_server<worker_session> server(config, {.delay = 1s});
  test::raw_socket peer(server.local_endpoint());
  peer.send_all("x\n");
  for (int i = 0; i < 500 && server.stats().requests == 0; ++i) std::this_thread::sleep_for(1ms);
  server.stop();
  EXPECT_EQ(peer.read_for(5s), "") << "closed without the reply";
  EXPECT_EQ(server.stats().grace_finished, 0u);
  EXPECT_EQ(server.stats().grace_cut, 1u);
}

INSTANTIATE_TEST_SUITE_P(grace, session_server_grace, ::testing::Values(0ms, 100ms));

// A second signal to `serve`: the grace under way ends at once, and the work still in flight is
// cut (without it, the reply would come after 2 s, within the 10 s grace).
TEST(session_server, end_grace_cuts_a_stop_under_way) {
  auto config = loopback(1);
  config.transport.grace = 10s;
  session_server<worker_session> server(config, {.delay = 2s});
  test::raw_socket peer(server.local_endpoint());
  peer.send_all("x\n");
  for (int i = 0; i < 500 && server.stats().requests == 0; ++i) std::this_thread::sleep_for(1ms);
  std::thread stopper([&] { server.stop(); });
  std::this_thread::sleep_for(100ms);
  server.end_grace();
  EXPECT_EQ(peer.read_for(5s), "") << "closed without the reply";
  stopper.join();
  EXPECT_EQ(server.stats().grace_cut, 1u);
}

TEST(connection_server, listens_only_from_start) {
  const std::string path = "/tmp/wirebench-start-" + std::to_string(::getpid()) + ".sock";
  connection_server_config config;
  config.listen = endpoint::parse_or_throw("unix:" + path);
  std::atomic<int> made{0};
  connection_server server(config, [&made] {
    ++made;
    return std::make_unique<echo_session>(echo_session::settings{});
  });
  EXPECT_NE(::access(path.c_str(), F_OK), 0) << "bound before start()";
  server.start();
  test::raw_socket peer(server.local_endpoint());
  peer.send_all("hi\n");
  EXPECT_EQ(peer.read_for(5s, 3), "hi\n");
  EXPECT_EQ(made.load(), 1);
  EXPECT_EQ(server.stats().requests, 0u) << "a bare connection_server counts connections only";
}

TEST(connection_server, stops_without_having_started) {
  connection_server_config config;
  config.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  connection_server server(config, [] {
    return std::make_unique<echo_session>(echo_session::settings{});
  });
  server.stop();
  EXPECT_EQ(server.stats().accepted, 0u);
}

}  // namespace
}  // namespace wirebench
