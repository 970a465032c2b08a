// Misbehaving peers against every protocol's server: each gets the documented close reason, and a
// well-behaved client on another connection is served before, during and after.
#include <thread>

#include <gtest/gtest.h>

#include "support/protocol_cases.hpp"
#include "support/raw_socket.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

class bad_input : public ::testing::TestWithParam<std::string> {
 protected:
  void start(server_config sc = {}) {
    proto_ = protocol_registry::builtin().find(GetParam());
    sc.max_frame_bytes = 1024;
    server_ = proto_->make_server(sc);
    client_config cc;
    cc.connect = server_->local_endpoint();
    good_ = proto_->make_client(cc);
    expect_good_client_served();
  }
  void expect_good_client_served() {
    auto r = test::greet_sync(*good_, "good");
    EXPECT_FALSE(r.ec) << r.ec.message();
    EXPECT_EQ(r.reply, "hello, good");
  }
  // Waits for the server to record `n` closes for `reason`.
  void expect_closes(const std::string& reason, std::uint64_t n = 1) {
    for (int i = 0; i < 1000; ++i) {
      auto s = server_->stats();
      if (s.close_reasons.contains(reason) && s.close_reasons[reason] >= n) break;
      std::this_thread::sleep_for(5ms);
    }
    auto s = server_->stats();
    EXPECT_EQ(s.close_reasons[reason], n) << "close reason " << reason;
  }
  // The server closes `peer` for `reason`, and still serves the good client.
  void expect_closed_for(test::raw_socket& peer, const std::string& reason) {
    EXPECT_TRUE(peer.closed_by_peer_within(5s));
    expect_closes(reason);
    expect_good_client_served();
  }
  std::string frame(const std::string& payload) { return test::frame_for(GetParam(), payload); }

  const protocol* proto_ = nullptr;
  std::unique_ptr<protocol_server> server_;
  std::unique_ptr<protocol_client> good_;
};

TEST_P(bad_input, oversize_frame_closes_that_connection_only) {
  start();
  test::raw_socket peer(server_->local_endpoint());
  // Replies to the frames before the bad one still arrive, then the close.
  peer.send_all(frame("ok") + frame(std::string(1025, 'x')));
  const std::string reply = frame("hello, ok");
  EXPECT_EQ(peer.read_for(5s, reply.size()), reply);
  expect_closed_for(peer, "frame_too_long");
}

TEST_P(bad_input, a_frame_of_exactly_the_limit_is_served) {
  start();
  test::raw_socket peer(server_->local_endpoint());
  const std::string name(1024, 'y');
  peer.send_all(frame(name));
  const std::string reply = frame("hello, " + name);
  EXPECT_EQ(peer.read_for(5s, reply.size()), reply);
}

TEST_P(bad_input, oversize_frame_under_resync_gets_an_error_reply_and_the_stream_goes_on) {
  server_config sc;
  sc.on_oversize = oversize_policy::resync;
  start(sc);
  test::raw_socket peer(server_->local_endpoint());
  peer.send_all(frame(std::string(5000, 'x')) + frame("next"));
  const std::string expected = frame("error: frame_too_long") + frame("hello, next");
  EXPECT_EQ(peer.read_for(5s, expected.size()), expected);
  expect_good_client_served();
}

TEST_P(bad_input, garbage_is_refused) {
  start();
  test::raw_socket peer(server_->local_endpoint());
  // The first 4 KiB of a 1 MiB frame of binary bytes: no newline (line), a length far over the
  // limit (length-prefixed).
  std::string garbage(1 << 20, '\0');
  for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>(0x80 | (i * 31));
  peer.send_all(frame(garbage).substr(0, 4096));
  expect_closed_for(peer, "frame_too_long");
}

TEST_P(bad_input, half_a_frame_then_vanishing_is_a_truncated_frame) {
  start();
  {
    test::raw_socket peer(server_->local_endpoint());
    peer.send_all(frame("abcdef").substr(0, 5));
  }  // FIN mid-frame
  expect_closes("truncated_frame");
  {
    test::raw_socket peer(server_->local_endpoint());
    peer.send_all(frame("abcdef").substr(0, 5));
    std::this_thread::sleep_for(20ms);
    peer.reset();  // RST mid-frame
  }
  expect_good_client_served();
}

TEST_P(bad_input, half_a_frame_then_silence_is_a_read_timeout) {
  server_config sc;
  sc.read_timeout = 200ms;
  start(sc);
  test::raw_socket peer(server_->local_endpoint());
  peer.send_all(frame("abcdef").substr(0, 5));
  expect_closed_for(peer, "read_timeout");
}

TEST_P(bad_input, a_peer_that_sends_nothing_is_an_idle_timeout) {
  server_config sc;
  sc.idle_timeout = 200ms;
  start(sc);
  test::raw_socket peer(server_->local_endpoint());
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  // The idle good client is closed too, so there are two.
  expect_closes("idle_timeout", 2);
}

TEST_P(bad_input, a_thousand_connections_at_once_are_all_served) {
  constexpr int n = 1000;
  if (test::raise_fd_limit() < 2 * n + 100)
    GTEST_SKIP() << "needs " << 2 * n + 100 << " file descriptors (ulimit -n)";
  server_config sc;
  sc.threads = 2;
  start(sc);
  std::vector<test::raw_socket> peers;
  peers.reserve(n);
  for (int i = 0; i < n; ++i) peers.emplace_back(server_->local_endpoint());
  for (auto& p : peers) ASSERT_TRUE(p.ok());
  for (int i = 0; i < n; ++i) peers[i].send_all(frame("p" + std::to_string(i)));
  expect_good_client_served();
  int right = 0;
  for (int i = 0; i < n; ++i) {
    const std::string want = frame("hello, p" + std::to_string(i));
    right += peers[i].read_for(5s, want.size()) == want;
  }
  EXPECT_EQ(right, n);
  EXPECT_GE(server_->stats().accepted, static_cast<std::uint64_t>(n));
}

TEST_P(bad_input, connections_past_the_cap_are_closed_and_counted) {
  server_config sc;
  sc.max_connections = 3;  // the good client holds one
  start(sc);
  test::raw_socket a(server_->local_endpoint()), b(server_->local_endpoint());
  a.send_all(frame("a"));
  EXPECT_EQ(a.read_for(5s, frame("hello, a").size()), frame("hello, a"));
  b.send_all(frame("b"));
  EXPECT_EQ(b.read_for(5s, frame("hello, b").size()), frame("hello, b"));
  test::raw_socket over(server_->local_endpoint());
  EXPECT_TRUE(over.closed_by_peer_within(5s));
  EXPECT_EQ(server_->stats().rejected_connections, 1u);
  expect_good_client_served();
}

// The stream framings: the servers that honour server_config::on_oversize (each protocol's own
// bad input is tested with it: resp_test, http1_test, http2_test, mux and msgpack-rpc's tests).
INSTANTIATE_TEST_SUITE_P(all, bad_input,
                         ::testing::ValuesIn(test::protocols_where([](const protocol& p) {
                           return p.can.resyncs_oversize;
                         })),
                         [](const auto& info) { return test::test_name_for(info.param); });

}  // namespace
}  // namespace wirebench
