// HTTP/2 over TLS (ALPN h2): our client and server end to end, with and without certificate
// verification; a cleartext peer on a TLS server, and a TLS client on a cleartext server, fail
// their calls cleanly (the server closes with tls_failed, the other connections keep being
// served); and curl, nghttp and h2load speak to our TLS server when they are installed.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "wirebench/tls/tls_context.hpp"
#include "support/child_process.hpp"
#include "support/concurrent_calls.hpp"
#include "support/raw_socket.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using test::greet_sync;

const protocol& h2() { return *protocol_registry::builtin().find("http2"); }

server_config tls_server_config() {
  server_config sc;
  sc.tls.enabled = true;  // a self-signed certificate made at start-up
  return sc;
}

client_config tls_client_for(const protocol_server& server) {
  client_config cc;
  cc.connect = server.local_endpoint();
  cc.tls.enabled = true;
  cc.reply_timeout = 5s;
  return cc;
}

// A test certificate on disk (made now, removed after): for --cacert and peer tools.
struct cert_dir {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("wirebench-h2tls-" + std::to_string(::getpid()));
  cert_dir() {
    std::filesystem::create_directories(dir);
    const tls::certificate_pem pem = tls::make_self_signed_certificate();
    std::ofstream(cert()) << pem.certificate;
    std::ofstream(key()) << pem.private_key;
  }
  ~cert_dir() { std::filesystem::remove_all(dir); }
  std::string cert() const { return (dir / "cert.pem").string(); }
  std::string key() const { return (dir / "key.pem").string(); }
};

std::uint64_t wait_close_reason(const protocol_server& server, const std::string& reason) {
  for (int i = 0; i < 500; ++i) {
    const auto reasons = server.stats().close_reasons;
    if (reasons.contains(reason)) return reasons.at(reason);
    std::this_thread::sleep_for(10ms);
  }
  return 0;
}

TEST(http2_tls, many_calls_on_two_connections_all_complete) {
  server_config sc = tls_server_config();
  sc.max_concurrent_streams = 10;
  auto server = h2().make_server(sc);
  client_config cc = tls_client_for(*server);
  cc.connections = 2;
  auto client = h2().make_client(cc);
  test::expect_each_call_completes_once(*client, 2, 250);
  EXPECT_EQ(server->stats().accepted, 2u);
  EXPECT_EQ(server->stats().requests, 500u);
}

TEST(http2_tls, a_verifying_client_accepts_the_servers_certificate_and_refuses_another) {
  cert_dir files;
  server_config sc = tls_server_config();
  sc.tls.certificate_file = files.cert();
  sc.tls.private_key_file = files.key();
  auto server = h2().make_server(sc);

  client_config good = tls_client_for(*server);
  good.tls.ca_file = files.cert();
  auto client = h2().make_client(good);
  const auto r = greet_sync(*client, "verified");
  EXPECT_FALSE(r.ec) << r.ec.message();
  EXPECT_EQ(r.reply, "hello, verified");

  cert_dir other;  // same name, different key: not the server we trust
  std::filesystem::path stranger = other.dir / "stranger.pem";
  std::ofstream(stranger) << tls::make_self_signed_certificate().certificate;
  client_config bad = tls_client_for(*server);
  bad.tls.ca_file = stranger.string();
  auto refused = h2().make_client(bad);
  const auto f = greet_sync(*refused, "x");
  ASSERT_TRUE(f.completed);
  EXPECT_TRUE(f.ec);
}

TEST(http2_tls, a_cleartext_client_on_a_tls_server_fails_cleanly_and_others_are_served) {
  auto server = h2().make_server(tls_server_config());
  auto good = h2().make_client(tls_client_for(*server));
  ASSERT_EQ(greet_sync(*good, "before").reply, "hello, before");

  client_config plain;
  plain.connect = server->local_endpoint();
  plain.reply_timeout = 5s;
  auto cleartext = h2().make_client(plain);
  const auto r = greet_sync(*cleartext, "x");
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.ec);
  EXPECT_EQ(wait_close_reason(*server, "tls_failed"), 1u);

  EXPECT_EQ(greet_sync(*good, "after").reply, "hello, after");
}

TEST(http2_tls, a_tls_client_on_a_cleartext_server_fails_cleanly) {
  auto server = h2().make_server({});
  auto client = h2().make_client(tls_client_for(*server));
  const auto r = greet_sync(*client, "x");
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.ec);
}

TEST(http2_tls, garbage_and_a_half_handshake_close_with_a_reason) {
  auto server = h2().make_server(tls_server_config());
  {
    test::raw_socket s(server->local_endpoint());
    s.send_all("this is not a TLS record\r\n\r\n");
    EXPECT_TRUE(s.closed_by_peer_within(5s));
  }
  EXPECT_EQ(wait_close_reason(*server, "tls_failed"), 1u);
  auto client = h2().make_client(tls_client_for(*server));
  EXPECT_EQ(greet_sync(*client, "still").reply, "hello, still");
}

class http2_tls_interop : public ::testing::Test {
 protected:
  void SetUp() override {
    server_config sc = tls_server_config();
    sc.tls.certificate_file = files_.cert();
    sc.tls.private_key_file = files_.key();
    server_ = h2().make_server(sc);
    port_ = std::to_string(server_->local_endpoint().port);
  }
  cert_dir files_;
  std::unique_ptr<protocol_server> server_;
  std::string port_;
};

TEST_F(http2_tls_interop, curl_verifies_our_certificate_and_negotiates_h2) {
  WIREBENCH_REQUIRE_PEER("curl", "curl");
  int rc = 0;
  const std::string out = test::run_shell(
      "curl -s --http2 --cacert " + files_.cert() + " -w ' %{http_version}' 'https://localhost:" +
          port_ + "/greet?name=curl'",
      &rc);
  EXPECT_EQ(out, "{\"greeting\":\"hello, curl\"} 2");
  EXPECT_EQ(rc, 0);
}

TEST_F(http2_tls_interop, nghttp) {
  WIREBENCH_REQUIRE_PEER("nghttp", "nghttp2-client");
  int rc = 0;
  EXPECT_EQ(test::run_shell("nghttp 'https://127.0.0.1:" + port_ + "/greet?name=nghttp'", &rc),
            "{\"greeting\":\"hello, nghttp\"}");
  EXPECT_EQ(rc, 0);
}

TEST_F(http2_tls_interop, h2load_all_requests_succeed) {
  WIREBENCH_REQUIRE_PEER("h2load", "nghttp2-client");
  const std::string out = test::run_shell("h2load -n 2000 -c 2 -m 10 'https://127.0.0.1:" + port_ +
                                          "/greet?name=load' 2>&1");
  EXPECT_NE(out.find("2000 succeeded, 0 failed, 0 errored"), std::string::npos) << out;
  EXPECT_NE(out.find("Application protocol: h2"), std::string::npos) << out;
}

}  // namespace
}  // namespace wirebench
