// Our HTTP/1.1 client when the server ends the stream, against Python's http.server (a server we
// did not write): a response delimited by the close (HTTP/1.0 style, neither Content-Length nor
// chunked) completes with the close; a GET in flight when the server drops a keep-alive
// connection is sent again on a new one, as curl, browsers and Envoy do; a POST never is.
#include <atomic>
#include <functional>
#include <thread>

#include <gtest/gtest.h>

#include "support/user_calls.hpp"
#include "../../src/protocols/http1/http1_parser.hpp"
#include "support/child_process.hpp"
#include "support/require_peer.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

TEST(http1_parser, a_response_without_length_ends_with_the_stream) {
  http1::parser p(http1::parser::kind::response);
  std::error_code error;
  p.feed(as_bytes(std::string_view("HTTP/1.0 200 OK\r\nX: y\r\n\r\nhello, ")));
  p.feed(as_bytes(std::string_view("world")));
  EXPECT_EQ(p.next(error), nullptr);
  EXPECT_TRUE(p.mid_message());
  ASSERT_TRUE(p.finish());
  const http1::message* m = p.next(error);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->body, "hello, world");
  EXPECT_FALSE(m->keep_alive);
  EXPECT_EQ(p.next(error), nullptr);
  EXPECT_FALSE(error);

  http1::parser cut(http1::parser::kind::response);
  cut.feed(as_bytes(std::string_view("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhel")));
  EXPECT_EQ(cut.next(error), nullptr);
  EXPECT_FALSE(error);
  EXPECT_FALSE(cut.finish()) << "a declared length the end cut short is not a response";
}

// Each call is made from the previous one's completion (a closed loop's worker): the request goes
// out in the same turn the last response was read, as the server's close arrives behind it.
struct chained_calls {
  explicit chained_calls(protocol_client& c) : client(c) {}
  void run(int n) {
    left = n;
    next();
    for (int i = 0; i < 2000 && done.load() < n; ++i) std::this_thread::sleep_for(5ms);
  }
  void next() {
    const std::string name = "c" + std::to_string(left.load());
    client.async_greet(name, [this, name](std::error_code ec, std::string_view reply) {
      if (!ec && (reply == "hello, " + name || !client.greets())) ++ok;
      if (ec == errc::connection_closed) ++closed;
      ++done;
      if (--left > 0) next();
    });
  }
  protocol_client& client;
  std::atomic<int> left{0}, done{0}, ok{0}, closed{0};
};

class http1_peer_end : public ::testing::Test {
 protected:
  std::unique_ptr<protocol_client> start(const std::string& mode,
                                         std::optional<user_call> call = std::nullopt) {
    const int port = test::free_loopback_port();
    peer_ = std::make_unique<test::child_process>(
        std::vector<std::string>{test::debian_python3, WIREBENCH_HTTP1_PEER, mode,
                                 std::to_string(port)});
    EXPECT_TRUE(test::wait_for_listener(port));
    client_config cc;
    cc.connect = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));
    cc.reply_timeout = 5s;
    if (call) cc.calls = {std::move(*call)};
    return protocol_registry::builtin().find("http1")->make_client(cc);
  }
  // `n` chained greet calls against the peer in `mode`, each of which must succeed; the client's
  // counters after them.
  client_counters greets_all_ok(const std::string& mode, int n) {
    auto client = start(mode);
    chained_calls calls(*client);
    calls.run(n);
    EXPECT_EQ(calls.ok.load(), n);
    return client->counters();
  }
  std::unique_ptr<test::child_process> peer_;
};

TEST_F(http1_peer_end, a_response_delimited_by_the_close_completes_ok) {
  EXPECT_GE(greets_all_ok("eof", 20).connects, 20u) << "each response ends its connection";
}

TEST_F(http1_peer_end, a_get_in_flight_when_a_keep_alive_connection_closes_is_sent_again) {
  EXPECT_GT(greets_all_ok("close-idle", 50).resent, 0u)
      << "no call met the close: the race was not played";
}

TEST_F(http1_peer_end, a_post_in_flight_when_a_keep_alive_connection_closes_fails) {
  http_call post;
  post.method = "POST";
  post.target = "/greet";
  post.body = "x";
  auto client = start("close-idle", user_call{post});
  chained_calls calls(*client);
  calls.run(50);
  EXPECT_EQ(client->counters().resent, 0u);
  EXPECT_GT(calls.closed.load(), 0) << "no call met the close: the race was not played";
  EXPECT_EQ(calls.ok.load() + calls.closed.load(), 50);
}

}  // namespace
}  // namespace wirebench
