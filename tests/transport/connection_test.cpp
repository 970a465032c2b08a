// The connection and connection_server, driven by small test handlers and raw peer sockets:
// gathered writes, the bounded read buffer, the three timeouts, close reasons, graceful stop.
#include "wirebench/transport/connection.hpp"

#include <future>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "support/raw_socket.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/transport/connection_server.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

// What a handler saw, readable from the test thread once the connection has closed.
struct observed {
  std::promise<void> closed;  // the first connection to close fills in the rest
  std::atomic<bool> any_closed{false};
  std::error_code reason;
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;
  std::atomic<int> frames{0};
  std::atomic<int> pings{0};
};

// Echoes each line; on a line "burst" queues three replies at once.
class echo_handler final : public connection_handler {
 public:
  explicit echo_handler(std::shared_ptr<observed> seen) : seen_(std::move(seen)) {}
  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    std::size_t consumed = 0;
    for (;;) {
      auto r = decoder_.decode(data.subspan(consumed));
      consumed += r.consumed;
      if (r.status == decode_status::need_more) break;
      if (r.status != decode_status::frame) {
        error = errc::frame_too_long;
        break;
      }
      ++seen_->frames;
      std::string line(as_text(r.frame));
      if (line == "burst") {
        for (const char* s : {"one\n", "two\n", "three\n"}) c.send({}, std::string(s), {});
      } else if (line == "slow") {  // holds the connection's thread, as a long request would
        std::this_thread::sleep_for(400ms);
        c.send({}, line + "\n", {});
      } else if (line == "flood") {
        for (int i = 0; i < 256; ++i) c.send({}, std::string(256 * 1024, 'x'), {});
      } else {
        c.send({}, line + "\n", {});
      }
    }
    return consumed;
  }
  void on_close(connection& c, std::error_code reason) override {
    if (seen_->any_closed.exchange(true)) return;
    seen_->reason = reason;
    seen_->reads = c.read_count();
    seen_->writes = c.write_count();
    seen_->closed.set_value();
  }
  bool mid_frame() const override { return decoder_.mid_frame(); }
  // A line "ping" stands for the protocol's ping; the peer's line back answers it.
  bool on_keepalive(connection& c) override {
    ++seen_->pings;
    c.send({}, std::string("ping\n"), {});
    return true;
  }

 private:
  std::shared_ptr<observed> seen_;
  line_decoder decoder_{line_decoder_config{1024, true, oversize_policy::fail}};
};

// Never consumes a byte: the read buffer must stop growing at its limit.
class hoarding_handler final : public connection_handler {
 public:
  explicit hoarding_handler(std::shared_ptr<observed> seen) : seen_(std::move(seen)) {}
  std::size_t on_data(connection&, std::span<const std::byte>, std::error_code&) override {
    return 0;
  }
  void on_close(connection&, std::error_code reason) override {
    if (seen_->any_closed.exchange(true)) return;
    seen_->reason = reason;
    seen_->closed.set_value();
  }

 private:
  std::shared_ptr<observed> seen_;
};

struct server_fixture {
  explicit server_fixture(connection_config cc = {}, bool hoard = false,
                          std::string listen = "tcp://127.0.0.1:0") {
    connection_server_config config;
    config.listen = endpoint::parse_or_throw(listen);
    config.connection = cc;
    config.grace = 2s;
    server = std::make_unique<connection_server>(config, [this, hoard]() -> std::unique_ptr<connection_handler> {
      if (hoard) return std::make_unique<hoarding_handler>(seen);
      return std::make_unique<echo_handler>(seen);
    });
    server->start();
  }
  // A client of the server: the test's peer.
  test::raw_socket connect() const { return test::raw_socket(server->local_endpoint()); }
  // The first connection's observations, once it has closed.
  observed& wait_closed() {
    EXPECT_EQ(seen->closed.get_future().wait_for(10s), std::future_status::ready);
    return *seen;
  }
  std::shared_ptr<observed> seen = std::make_shared<observed>();
  std::unique_ptr<connection_server> server;
};

TEST(connection, replies_queued_in_one_turn_go_out_in_one_write) {
  server_fixture f;
  test::raw_socket peer(f.server->local_endpoint());
  ASSERT_TRUE(peer.ok());
  ASSERT_TRUE(peer.send_all("burst\n"));
  EXPECT_EQ(peer.read_for(5s, 14), "one\ntwo\nthree\n");
  peer.close();
  auto& seen = f.wait_closed();
  EXPECT_EQ(seen.reason, errc::peer_closed);
  EXPECT_EQ(seen.writes, 1u);  // three replies, one writev
}

TEST(connection, pipelined_requests_never_cost_more_writes_than_reads) {
  server_fixture f;
  test::raw_socket peer(f.server->local_endpoint());
  std::string requests, expected;
  for (int i = 0; i < 500; ++i) {
    requests += "r" + std::to_string(i) + "\n";
    expected += "r" + std::to_string(i) + "\n";
  }
  ASSERT_TRUE(peer.send_all(requests));
  EXPECT_EQ(peer.read_for(5s, expected.size()), expected);
  peer.close();
  auto& seen = f.wait_closed();
  EXPECT_EQ(seen.frames.load(), 500);
  EXPECT_LE(seen.writes, seen.reads);
}

TEST(connection, read_buffer_stops_at_its_limit) {
  connection_config cc;
  cc.initial_read_bytes = 1024;
  cc.max_read_bytes = 8192;
  server_fixture f(cc, /*hoard=*/true);
  test::raw_socket peer(f.server->local_endpoint());
  peer.send_all(std::string(100000, 'a'));  // may fail part way once the server closes
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  EXPECT_EQ(f.wait_closed().reason, errc::frame_too_long);
}

TEST(connection, idle_peer_is_closed_with_idle_timeout) {
  server_fixture f({.idle_timeout = 150ms});
  test::raw_socket peer = f.connect();
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  EXPECT_EQ(f.wait_closed().reason, errc::idle_timeout);
  EXPECT_EQ(f.server->stats().close_reasons.at("idle_timeout"), 1u);
}

TEST(connection, a_peer_that_answers_no_keepalive_ping_is_closed_with_keepalive_timeout) {
  server_fixture f({.keepalive = {.interval = 100ms, .timeout = 150ms, .without_calls = true}});
  test::raw_socket peer = f.connect();
  EXPECT_EQ(peer.read_for(5s, 5), "ping\n");  // after 100 ms of silence
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  EXPECT_EQ(f.wait_closed().reason, errc::keepalive_timeout);
  EXPECT_EQ(f.seen->pings, 1);
  EXPECT_EQ(f.server->stats().close_reasons.at("keepalive_timeout"), 1u);
}

TEST(connection, a_peer_that_answers_every_keepalive_ping_stays_connected) {
  server_fixture f({.keepalive = {.interval = 50ms, .timeout = 100ms, .without_calls = true}});
  test::raw_socket peer = f.connect();
  for (int i = 0; i < 5; ++i) {
    ASSERT_EQ(peer.read_for(5s, 5), "ping\n") << "ping " << i;
    peer.send_all("pong\n");  // any byte answers; the echo comes back before the next ping
    ASSERT_EQ(peer.read_for(5s, 5), "pong\n");
  }
  EXPECT_FALSE(f.seen->any_closed);
  EXPECT_EQ(f.seen->pings, 5);
}

// Without without_calls, pings go only while the peer owes a reply (awaiting_peer(), which a
// server's echo handler never does): an idle connection is left alone, as gRPC's clients leave it.
TEST(connection, keepalive_without_calls_off_leaves_an_idle_connection_unpinged) {
  connection_config cc;
  cc.keepalive = {.interval = 20ms, .timeout = 20ms, .without_calls = false};
  server_fixture f(cc);
  test::raw_socket peer(f.server->local_endpoint());
  EXPECT_EQ(peer.read_for(300ms), "");
  peer.send_all("still\n");
  EXPECT_EQ(peer.read_for(5s, 6), "still\n");
  EXPECT_EQ(f.seen->pings, 0);
  EXPECT_FALSE(f.seen->any_closed);
}

TEST(connection, half_a_frame_then_silence_is_a_read_timeout) {
  connection_config cc;
  cc.read_timeout = 150ms;
  cc.idle_timeout = 60s;
  server_fixture f(cc);
  test::raw_socket peer(f.server->local_endpoint());
  peer.send_all("ok\nhalf-a-li");
  EXPECT_EQ(peer.read_for(5s, 3), "ok\n");
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  EXPECT_EQ(f.wait_closed().reason, errc::read_timeout);
}

TEST(connection, half_a_frame_then_close_is_a_truncated_frame) {
  server_fixture f;
  test::raw_socket peer(f.server->local_endpoint());
  peer.send_all("half-a-li");
  peer.close();
  EXPECT_EQ(f.wait_closed().reason, errc::truncated_frame);
}

TEST(connection, peer_that_does_not_read_hits_the_write_timeout) {
  connection_config cc;
  cc.write_timeout = 200ms;
  cc.max_output_bytes = 256 << 20;
  cc.pause_reading_above = 256 << 20;
  server_fixture f(cc);
  test::raw_socket peer(f.server->local_endpoint());
  peer.send_all("flood\n");  // 64 MiB of replies that we never read
  EXPECT_EQ(f.wait_closed().reason, errc::write_timeout);
}

TEST(connection, output_over_the_limit_drops_a_slow_consumer) {
  connection_config cc;
  cc.max_output_bytes = 1 << 20;
  server_fixture f(cc);
  test::raw_socket peer(f.server->local_endpoint());
  peer.send_all("flood\n");
  EXPECT_EQ(f.wait_closed().reason, errc::slow_consumer);
}

TEST(connection, graceful_stop_flushes_then_closes_with_shutting_down) {
  server_fixture f;
  test::raw_socket peer(f.server->local_endpoint());
  peer.send_all("hello\n");
  EXPECT_EQ(peer.read_for(5s, 6), "hello\n");
  f.server->stop();
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  EXPECT_EQ(f.wait_closed().reason, errc::shutting_down);
  f.server->stop();  // idempotent
}

// A request the peer sent before the stop, still unread when the drain begins (the server's thread
// was busy), is read and answered; only then does the connection close.
TEST(connection, graceful_stop_answers_what_the_peer_sent_before_it) {
  server_fixture f;
  test::raw_socket peer(f.server->local_endpoint());
  ASSERT_TRUE(peer.send_all("slow\n"));
  std::this_thread::sleep_for(100ms);  // the server's thread is in on_data, for 300 ms more
  ASSERT_TRUE(peer.send_all("sent before the stop\n"));
  auto stopped = std::async(std::launch::async, [&] { f.server->stop(); });
  EXPECT_EQ(peer.read_for(5s, 26), "slow\nsent before the stop\n");
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  stopped.get();
  EXPECT_EQ(f.wait_closed().reason, errc::shutting_down);
}

TEST(connection_server, serves_unix_path_and_abstract_sockets) {
  const std::string path = "/tmp/wirebench-test-" + std::to_string(::getpid()) + ".sock";
  for (std::string where : {"unix:" + path, "unix:@wirebench-test-" + std::to_string(::getpid())}) {
    server_fixture f({}, false, where);
    EXPECT_EQ(f.server->local_endpoint().to_string(), where);
    test::raw_socket peer(f.server->local_endpoint());
    ASSERT_TRUE(peer.ok()) << where;
    peer.send_all("unix\n");
    EXPECT_EQ(peer.read_for(5s, 5), "unix\n");
  }
  EXPECT_NE(::access(path.c_str(), F_OK), 0) << "the socket file is removed on stop";
}

TEST(connection_server, replaces_a_stale_unix_socket_but_not_a_live_one) {
  const std::string where = "unix:/tmp/wirebench-stale-" + std::to_string(::getpid()) + ".sock";
  {
    server_fixture live({}, false, where);
    EXPECT_THROW(server_fixture({}, false, where), std::system_error);
  }
  // Leave a stale file behind, as a crashed server would.
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  auto ep = endpoint::parse_or_throw(where).to_asio();
  ASSERT_EQ(::bind(fd, ep.data(), static_cast<socklen_t>(ep.size())), 0);
  ::close(fd);
  server_fixture again({}, false, where);
  test::raw_socket peer(again.server->local_endpoint());
  EXPECT_TRUE(peer.ok());
}

TEST(connection_server, bind_failure_names_the_endpoint) {
  server_fixture first;
  const auto taken = first.server->local_endpoint().to_string();
  try {
    server_fixture second({}, false, taken);
    FAIL() << "binding a taken port must throw";
  } catch (const std::system_error& e) {
    EXPECT_NE(std::string(e.what()).find(taken), std::string::npos) << e.what();
  }
}

// Encodes lazily, as nghttp2 does: on_data only asks for a write; before_write adds the reply.
class lazy_handler final : public connection_handler {
 public:
  std::size_t on_data(connection& c, std::span<const std::byte> data, std::error_code&) override {
    owed_ += data.size();
    c.request_flush();
    return data.size();
  }
  void on_close(connection&, std::error_code) override {}
  void before_write(connection& c, std::error_code&) override {
    for (; owed_ > 0; --owed_) c.outbox().append_bytes(as_bytes(std::string_view("ok\n")));
  }

 private:
  std::size_t owed_ = 0;
};

TEST(connection_server, handlers_write_from_before_write) {
  connection_server_config config;
  config.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  connection_server server(config, [] { return std::make_unique<lazy_handler>(); });
  server.start();
  test::raw_socket peer(server.local_endpoint());
  peer.send_all("x");
  EXPECT_EQ(peer.read_for(5s, 3), "ok\n");
}

TEST(connection_server, connections_over_the_cap_are_closed_at_once) {
  connection_server_config config;
  config.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  config.max_connections = 2;
  auto seen = std::make_shared<observed>();
  connection_server server(config, [seen] { return std::make_unique<echo_handler>(seen); });
  server.start();
  test::raw_socket a(server.local_endpoint()), b(server.local_endpoint());
  a.send_all("a\n");
  b.send_all("b\n");
  EXPECT_EQ(a.read_for(5s, 2), "a\n");
  EXPECT_EQ(b.read_for(5s, 2), "b\n");
  test::raw_socket c(server.local_endpoint());
  EXPECT_TRUE(c.closed_by_peer_within(5s));
  EXPECT_EQ(server.stats().rejected_connections, 1u);
  a.send_all("still\n");
  EXPECT_EQ(a.read_for(5s, 6), "still\n");
}

}  // namespace
}  // namespace wirebench
