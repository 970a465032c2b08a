// HTTP/2: streams over the server's concurrency limit wait (they are not failed), many workers
// share one connection, a bad preface closes only that connection, GOAWAY drains, and curl,
// nghttp and h2load all get the greeting from our server when they are installed.
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/child_process.hpp"
#include "support/protocol_cases.hpp"
#include "support/raw_socket.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

const protocol& h2() { return *protocol_registry::builtin().find("http2"); }

using test::run_shell;

TEST(http2, streams_over_the_servers_limit_wait_and_all_complete_on_one_connection) {
  server_config sc;
  sc.options["--max-streams"] = "2";
  auto server = h2().make_server(sc);
  auto client = test::client_of(h2(), *server);
  constexpr int n = 300;
  std::atomic<int> ok{0}, done{0};
  for (int i = 0; i < n; ++i) {
    const std::string name = "s" + std::to_string(i);
    client->async_greet(name, [&, name](std::error_code ec, std::string_view r) {
      ok += !ec && r == "hello, " + name;
      ++done;
    });
  }
  for (int i = 0; i < 2000 && done < n; ++i) std::this_thread::sleep_for(5ms);
  EXPECT_EQ(ok.load(), n);
  EXPECT_EQ(server->stats().accepted, 1u);
  EXPECT_EQ(server->stats().requests, static_cast<std::uint64_t>(n));
}

// A server frame over the 16 KiB frame size: nghttp2 answers GOAWAY(FRAME_SIZE_ERROR) and ignores
// everything after it, so the client codec ends the connection at once (its calls fail now, not
// at their deadlines). Before, it went on waiting on a session that would never read again.
TEST(http2_client_codec, a_session_nghttp2_ended_for_a_bad_frame_ends_the_connection) {
  auto codec = h2().client_codecs(client_config{})();
  gather_queue out;
  ASSERT_FALSE(codec->open(out));
  ASSERT_FALSE(codec->encode(1, "bob", out));
  ASSERT_FALSE(codec->produce(out));
  out.clear();
  // The server's SETTINGS, then a DATA frame header declaring 0x227d00 bytes on stream 1.
  const std::string bytes("\x00\x00\x00\x04\x00\x00\x00\x00\x00"
                          "\x22\x7d\x00\x00\x00\x00\x00\x00\x01", 18);
  decoded into;
  std::error_code error;
  EXPECT_EQ(codec->decode(as_bytes(bytes), into, out, error), bytes.size());
  EXPECT_EQ(error, errc::protocol_error);
  std::string sent;
  out.for_each_segment([&](std::span<const std::byte> b) { sent += as_text(b); });
  // SETTINGS ack, then GOAWAY (type 7) with FRAME_SIZE_ERROR (6) after last-stream-id 0.
  const auto goaway = sent.find(std::string("\x07\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x06", 14));
  EXPECT_NE(goaway, std::string::npos);
}

TEST(http2, a_bad_preface_closes_that_connection_only) {
  auto server = h2().make_server({});
  auto good = test::client_of(h2(), *server);
  EXPECT_EQ(test::greet_sync(*good, "before").reply, "hello, before");
  test::raw_socket peer(server->local_endpoint());
  peer.send_all("GET / HTTP/1.1\r\nHost: x\r\n\r\n");  // HTTP/1.1 to an h2c prior-knowledge server
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  EXPECT_EQ(test::greet_sync(*good, "after").reply, "hello, after");
}

TEST(http2, graceful_stop_sends_goaway_and_later_calls_fail_cleanly) {
  auto server = h2().make_server({});
  auto c = test::client_of(h2(), *server);
  EXPECT_EQ(test::greet_sync(*c, "x").reply, "hello, x");
  server->stop();
  auto after = test::greet_sync(*c, "y");
  ASSERT_TRUE(after.completed);
  EXPECT_TRUE(after.ec) << "no server: the call fails, it does not hang";
}

// The GOAWAYs of a graceful stop, read off the wire: first the shutdown notice (the highest
// stream id: open no more, what you sent is still read), then the last stream processed.
TEST(http2, graceful_stop_sends_a_shutdown_notice_then_the_last_stream_id) {
  auto server = h2().make_server({});
  test::raw_socket peer(server->local_endpoint());
  using namespace std::string_literals;
  ASSERT_TRUE(peer.send_all("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"s + "\0\0\0\4\0\0\0\0\0"s));
  std::this_thread::sleep_for(100ms);
  std::thread stopper([&] { server->stop(); });
  bool eof = false;
  const std::string got = peer.read_for(5s, SIZE_MAX, &eof);
  stopper.join();
  EXPECT_TRUE(eof);
  std::vector<std::uint32_t> goaway_last_ids;
  for (std::size_t at = 0; at + 9 <= got.size();) {  // frame header: length(3) type flags id(4)
    const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(got[i]); };
    const std::size_t length = (byte(at) << 16) | (byte(at + 1) << 8) | byte(at + 2);
    if (byte(at + 3) == 0x7 && length >= 8)
      goaway_last_ids.push_back(((byte(at + 9) & 0x7fu) << 24) | (byte(at + 10) << 16) |
                                (byte(at + 11) << 8) | byte(at + 12));
    at += 9 + length;
  }
  EXPECT_EQ(goaway_last_ids, (std::vector<std::uint32_t>{0x7fffffffu, 0u}));
}

class http2_interop : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = h2().make_server({});
    url_ = "http://127.0.0.1:" + std::to_string(server_->local_endpoint().port) + "/greet";
  }
  std::unique_ptr<protocol_server> server_;
  std::string url_;
};

TEST_F(http2_interop, curl_prior_knowledge) {
  WIREBENCH_REQUIRE_PEER("curl", "curl");
  int rc = 0;
  EXPECT_EQ(run_shell("curl -s --http2-prior-knowledge '" + url_ + "?name=curl' && curl -s --http2-prior-knowledge -d "
                "'{\"name\":\"post\"}' " + url_, &rc),
            "{\"greeting\":\"hello, curl\"}{\"greeting\":\"hello, post\"}");
  EXPECT_EQ(rc, 0);
}

TEST_F(http2_interop, nghttp) {
  WIREBENCH_REQUIRE_PEER("nghttp", "nghttp2-client");
  int rc = 0;
  EXPECT_EQ(run_shell("nghttp '" + url_ + "?name=nghttp'", &rc), "{\"greeting\":\"hello, nghttp\"}");
  EXPECT_EQ(rc, 0);
}

// HEAD: the headers end the stream. With a DATA frame after them (before), nghttp reset the
// stream with PROTOCOL_ERROR.
TEST_F(http2_interop, nghttp_head_gets_headers_that_end_the_stream) {
  WIREBENCH_REQUIRE_PEER("nghttp", "nghttp2-client");
  int rc = 0;
  const std::string out = run_shell("nghttp -v -H ':method: HEAD' '" + url_ + "?name=x' 2>&1", &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("recv (stream_id=13) content-length: 23"), std::string::npos) << out;
  EXPECT_NE(out.find("recv (stream_id=13) date: "), std::string::npos) << out;
  EXPECT_NE(out.find("; END_STREAM | END_HEADERS"), std::string::npos) << out;
  EXPECT_EQ(out.find("DATA frame"), std::string::npos) << out;
  EXPECT_EQ(out.find("RST_STREAM"), std::string::npos) << out;
}

TEST_F(http2_interop, h2load_all_requests_succeed) {
  WIREBENCH_REQUIRE_PEER("h2load", "nghttp2-client");
  const std::string out = run_shell("h2load -n 2000 -c 2 -m 10 '" + url_ + "?name=load' 2>&1");
  EXPECT_NE(out.find("2000 succeeded, 0 failed, 0 errored"), std::string::npos) << out;
}

}  // namespace
}  // namespace wirebench

namespace wirebench {
namespace {

TEST(http2_settings, the_server_announces_its_stream_limit_and_windows) {
  WIREBENCH_REQUIRE_PEER("nghttp", "nghttp2-client");
  server_config sc;
  sc.options = {{"--max-streams", "7"}, {"--stream-window", std::to_string(1 << 20)},
                {"--connection-window", std::to_string(4 << 20)}};
  auto server = protocol_registry::builtin().find("http2")->make_server(sc);
  const std::string out = test::run_shell(
      "nghttp -nv 'http://127.0.0.1:" + std::to_string(server->local_endpoint().port) +
      "/greet?name=x' 2>&1");
  EXPECT_NE(out.find("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):7]"), std::string::npos) << out;
  EXPECT_NE(out.find("[SETTINGS_INITIAL_WINDOW_SIZE(0x04):1048576]"), std::string::npos) << out;
  // The connection window grows from 65535 to 4 MiB: one WINDOW_UPDATE on stream 0.
  EXPECT_NE(out.find("(window_size_increment=" + std::to_string((4 << 20) - 65535) + ")"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace wirebench
