// Servers on a server codec (server/codec_session.hpp): the session server's worker pool and service time now
// serve every such protocol, and replies still go out in request order for an ordered codec,
// including the answers the protocol gives itself between calls. A graceful stop finishes the
// calls on the pool and counts them.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/protocol_cases.hpp"
#include "support/raw_socket.hpp"
#include "support/sync_call.hpp"
#include "wirebench/calls/service_time.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

server_config on_workers(const std::string& service_time) {
  server_config sc;
  sc.workers = 3;
  sc.service_time = service_time_model::parse(service_time);
  return sc;
}

// Every protocol with a server codec: 100 pipelined calls whose replies the pool finishes in any
// order (exponential service times on 3 workers) come back in request order, byte for byte, from
// an ordered codec; from one whose replies carry their key (mux), each exactly once.
TEST(codec_session, replies_on_a_worker_pool_keep_request_order) {
  for (const protocol& p : protocol_registry::builtin().all()) {
    if (!p.server_codecs || !p.test.wire.request) continue;
    SCOPED_TRACE(p.name);
    const server_config sc = on_workers("exp:300us");
    auto server = p.make_server(sc);
    test::raw_socket peer(server->local_endpoint());
    std::string requests, replies;
    std::vector<std::string> each_reply;
    for (std::uint32_t i = 1; i <= 100; ++i) {
      const std::string name = "n" + std::to_string(i);
      requests += p.test.wire.request(name, i);
      each_reply.push_back(p.test.wire.reply(expected_greeting(name), i));
      replies += each_reply.back();
    }
    ASSERT_TRUE(peer.send_all(requests));
    const std::string got = test::mask_http_dates(peer.read_for(10s, replies.size()));
    if (p.server_codecs(sc)()->ordered()) {
      EXPECT_EQ(got, replies);
    } else {
      EXPECT_EQ(got.size(), replies.size());
      for (const std::string& reply : each_reply) {
        const auto at = got.find(reply);
        EXPECT_NE(at, std::string::npos) << reply;
        if (at != std::string::npos) {
          EXPECT_EQ(got.find(reply, at + 1), std::string::npos) << reply << " came twice";
        }
      }
    }
    EXPECT_EQ(server->stats().requests, 100u);
  }
}

// What RESP answers itself (PING) waits for the calls before it, held on the pool.
TEST(codec_session, an_answer_the_protocol_gives_itself_waits_its_turn) {
  auto server = protocol_registry::builtin().find("resp")->make_server(on_workers("fixed:20ms"));
  test::raw_socket peer(server->local_endpoint());
  ASSERT_TRUE(peer.send_all("GREET a\r\nPING\r\nGREET b\r\n"));
  const std::string expected = "$8\r\nhello, a\r\n+PONG\r\n$8\r\nhello, b\r\n";
  EXPECT_EQ(peer.read_for(5s, expected.size()), expected);
}

// A graceful stop with calls still on the pool: they finish, go out, and are counted as finished
// in the grace; then the connection closes.
TEST(codec_session, a_graceful_stop_finishes_the_calls_on_the_pool) {
  auto server = protocol_registry::builtin().find("line")->make_server(on_workers("fixed:200ms"));
  test::raw_socket peer(server->local_endpoint());
  ASSERT_TRUE(peer.send_all("a\nb\nc\n"));
  std::this_thread::sleep_for(50ms);  // taken in, on the pool
  server->stop();
  EXPECT_EQ(peer.read_for(5s, 30), "hello, a\nhello, b\nhello, c\n");
  EXPECT_TRUE(peer.closed_by_peer_within(5s));
  const server_stats s = server->stats();
  EXPECT_EQ(s.grace_finished, 3u);
  EXPECT_EQ(s.grace_cut, 0u);
}

}  // namespace
}  // namespace wirebench
