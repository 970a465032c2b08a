// Our HTTP clients against the reference servers, when installed: our HTTP/2 client against
// nghttpd (h2c with prior knowledge, and TLS with ALPN h2), our HTTP/1.1 client (keep-alive,
// pipelined, and a connection per call) against nginx. Both serve the greeting JSON for
// name=x as a static reply, which is all a correct client needs to agree with.
#include <filesystem>
#include <condition_variable>
#include <fstream>
#include <mutex>

#include <gtest/gtest.h>

#include "wirebench/tls/tls_context.hpp"
#include "support/child_process.hpp"
#include "support/nginx_server.hpp"
#include "support/temp_dir.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "wirebench/load/load_driver.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

constexpr const char* greeting_json = R"({"greeting":"hello, x"})";

// A folder nghttpd serves: the greeting for name=x as the static file "greet".
class peer_dir : public test::temp_dir {
 public:
  explicit peer_dir(const std::string& tag) : temp_dir(tag) {
    std::ofstream(path("greet")) << greeting_json;
  }
};

// Makes `calls` calls at once through `client` (so they are pipelined or multiplexed) and
// expects every one to get the greeting for "x".
void expect_all_greeted(protocol_client& client, int calls) {
  std::mutex m;
  std::condition_variable cv;
  int done = 0, ok = 0;
  std::string first_error;
  for (int i = 0; i < calls; ++i)
    client.async_greet("x", [&](std::error_code ec, std::string_view reply) {
      std::lock_guard lock(m);
      if (!ec && reply == "hello, x") ++ok;
      else if (first_error.empty()) first_error = ec ? ec.message() : std::string(reply);
      ++done;
      cv.notify_all();
    });
  std::unique_lock lock(m);
  ASSERT_TRUE(cv.wait_for(lock, 20s, [&] { return done == calls; })) << done << " of " << calls;
  EXPECT_EQ(ok, calls) << first_error;
}

client_config client_for(int port) {
  client_config cc;
  cc.connect = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));
  cc.reply_timeout = 5s;
  return cc;
}

TEST(http_peer_interop, our_http2_client_against_nghttpd_cleartext) {
  WIREBENCH_REQUIRE_PEER("nghttpd", "nghttp2-server");
  peer_dir dir("nghttpd");
  const int port = test::free_loopback_port();
  test::child_process nghttpd({"nghttpd", "--no-tls", "-d", dir.str(), std::to_string(port)});
  ASSERT_TRUE(test::wait_for_listener(port));
  auto client = protocol_registry::builtin().find("http2")->make_client(client_for(port));
  expect_all_greeted(*client, 50);
}

TEST(http_peer_interop, our_http2_client_against_nghttpd_over_tls_with_verification) {
  WIREBENCH_REQUIRE_PEER("nghttpd", "nghttp2-server");
  peer_dir dir("nghttpd-tls");
  const tls::certificate_pem pem = tls::make_self_signed_certificate();
  std::ofstream(dir.path("cert.pem")) << pem.certificate;
  std::ofstream(dir.path("key.pem")) << pem.private_key;
  const int port = test::free_loopback_port();
  test::child_process nghttpd(
      {"nghttpd", "-d", dir.str(), std::to_string(port), dir.path("key.pem"), dir.path("cert.pem")});
  ASSERT_TRUE(test::wait_for_listener(port));
  client_config cc = client_for(port);
  cc.tls.enabled = true;
  cc.tls.ca_file = dir.path("cert.pem");
  auto client = protocol_registry::builtin().find("http2")->make_client(cc);
  expect_all_greeted(*client, 50);
}

// nginx as stock as it gets: keep-alive connections end after 100 requests (HTTP/1.1 with
// `Connection: close`, HTTP/2 with a GOAWAY), as keepalive_requests says by default in older
// releases. It greets the name it is given ($arg_name), so every reply can be checked. One port
// speaks HTTP/1.1, the other h2c (HTTP/2 with prior knowledge).
class nginx_peer : public ::testing::Test {
 protected:
  void SetUp() override {
    WIREBENCH_REQUIRE_PEER("nginx", "nginx-light");
    nginx_ = std::make_unique<test::nginx_server>(
        "nginx",
        "    location /greet { default_type application/json; "
        "return 200 '{\"greeting\":\"hello, $arg_name\"}'; }\n",
        "  keepalive_requests 100;\n");
    ASSERT_TRUE(nginx_->started()) << "nginx did not start";
    port_ = nginx_->port();
    h2c_port_ = nginx_->h2c_port();
  }
  int port_ = 0;
  int h2c_port_ = 0;
  std::unique_ptr<test::nginx_server> nginx_;
};

TEST_F(nginx_peer, our_http1_client_keep_alive_and_pipelined) {
  client_config cc = client_for(port_);
  cc.depth = 8;  // pipelined: nginx answers in order
  auto client = protocol_registry::builtin().find("http1")->make_client(cc);
  expect_all_greeted(*client, 50);
}

TEST_F(nginx_peer, our_http1_client_with_a_connection_per_call) {
  client_config cc = client_for(port_);
  auto client = protocol_registry::builtin().find("http1-close")->make_client(cc);
  expect_all_greeted(*client, 20);
}

// The load generator against nginx closing every connection after 100 requests: the closed
// connections are replaced and the requests nginx never read are sent again, so a 2 s closed
// loop loses no call (before the client engine, every call failed after the first few hundred).
TEST_F(nginx_peer, keepalive_requests_100_loses_no_call_over_http1_and_h2c) {
  struct variant {
    const char* protocol;
    int port;
    std::size_t connections, depth;
  };
  for (const variant v : {variant{"http1", port_, 8, 1}, variant{"http1", port_, 2, 8},
                          variant{"http2", h2c_port_, 1, 8}}) {
    SCOPED_TRACE(std::string(v.protocol) + " depth " + std::to_string(v.depth));
    client_config cc = client_for(v.port);
    cc.connections = v.connections;
    cc.depth = v.depth;
    auto client = protocol_registry::builtin().find(v.protocol)->make_client(cc);
    load_spec s;
    s.workers = v.connections * v.depth;
    s.warmup = 100ms;
    s.duration = 2s;
    const load_result r = run_closed_loop(*client, s);
    client->close();
    EXPECT_EQ(r.outcomes.failed(), 0u) << "e.g. " << (r.outcomes.errors().empty()
                                                        ? std::string("-")
                                                        : r.outcomes.errors().begin()->first);
    const auto c = client->counters();
    // More calls than connections x 100: nginx must have closed some, and they were replaced.
    EXPECT_GT(r.outcomes.count(outcome::ok), 100 * v.connections);
    EXPECT_GT(c.reconnects, 0u);
    if (v.depth > 1 && std::string(v.protocol) == "http1") {
      EXPECT_GT(c.resent, 0u) << "requests pipelined behind Connection: close are sent again";
    }
  }
}

}  // namespace
}  // namespace wirebench
