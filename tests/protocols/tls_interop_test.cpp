// TLS against software we did not write, when it is installed: curl, nghttp, h2load and
// redis-cli against our servers over TLS (they verify our certificate), and our clients against
// nginx and redis-server over TLS (we verify theirs). What every TLS protocol does between our
// own client and server is in tls_protocols_test.cpp.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "support/protocol_cases.hpp"

#include "support/user_calls.hpp"
#include "wirebench/tls/tls_context.hpp"
#include "support/cert_files.hpp"
#include "support/child_process.hpp"
#include "support/nginx_server.hpp"
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


// Our server of `protocol` over TLS, with a certificate the peer tools are told to trust.
class tls_server : public ::testing::Test {
 protected:
  // client_ca: require client certificates from this CA (mutual TLS), as --tls-client-ca.
  void start(const std::string& protocol, const std::string& client_ca = "") {
    server_config sc;
    sc.tls.certificate_file = files_.cert();
    sc.tls.private_key_file = files_.key();
    sc.tls.client_ca_file = client_ca;
    sc.tls.enabled = true;
    server_ = test::builtin_protocol(protocol).make_server(sc);
    port_ = std::to_string(server_->local_endpoint().port);
  }
  test::cert_files files_;
  std::unique_ptr<protocol_server> server_;
  std::string port_;
};

// Our client of `protocol` to a peer's TLS port on loopback, verifying it against `ca`.
client_config verifying_client(int port, const std::string& ca) {
  client_config cc;
  cc.connect = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));
  cc.reply_timeout = 5s;
  cc.tls.enabled = true;
  cc.tls.ca_file = ca;
  return cc;
}

void expect_all_succeed(protocol_client& client, int calls) {
  for (int i = 0; i < calls; ++i) {
    const auto r = greet_sync(client, "n" + std::to_string(i));
    ASSERT_TRUE(r.completed);
    ASSERT_FALSE(r.ec) << "call " << i << ": " << r.ec.message();
  }
}

class http2_tls_interop : public tls_server {
 protected:
  void SetUp() override { start("http2"); }
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

// HTTP/1.1 over TLS: curl verifies our certificate and speaks HTTP/1.1 (ALPN http/1.1), one
// connection for several requests.
TEST_F(tls_server, curl_gets_http1_over_tls_from_our_http1_server) {
  WIREBENCH_REQUIRE_PEER("curl", "curl");
  start("http1");
  int rc = 0;
  const std::string url = "https://localhost:" + port_ + "/greet?name=";
  const std::string out = test::run_shell("curl -s --http1.1 --cacert " + files_.cert() +
                                              " -w ' %{http_version}\\n' '" + url + "a' '" + url +
                                              "b'",
                                          &rc);
  EXPECT_EQ(out, "{\"greeting\":\"hello, a\"} 1.1\n{\"greeting\":\"hello, b\"} 1.1\n");
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(server_->stats().accepted, 1u);  // curl kept its connection for the second request
}

// RESP over TLS: redis-cli verifies our certificate and gets its reply.
TEST_F(tls_server, redis_cli_over_tls_against_our_resp_server) {
  WIREBENCH_REQUIRE_PEER("redis-cli", "redis-tools");
  start("resp");
  int rc = 0;
  EXPECT_EQ(test::run_shell("redis-cli --tls --cacert " + files_.cert() + " -h 127.0.0.1 -p " +
                                port_ + " GREET cli",
                            &rc),
            "hello, cli\n");
  EXPECT_EQ(rc, 0);
}

// Mutual TLS against peers: curl and redis-cli present a client certificate (--cert/--key) to our
// servers that require one; without it their request fails and nothing is served.
TEST_F(tls_server, curl_and_redis_cli_present_client_certificates_our_servers_require) {
  WIREBENCH_REQUIRE_PEER("curl", "curl");
  WIREBENCH_REQUIRE_PEER("redis-cli", "redis-tools");
  test::cert_files client("curl-client");
  const std::string identity = " --cert " + client.cert() + " --key " + client.key();
  start("http2", client.cert());
  const std::string curl = "curl -s --http2 --cacert " + files_.cert() + " 'https://localhost:" +
                           port_ + "/greet?name=m'";
  int rc = 0;
  EXPECT_EQ(test::run_shell(curl + identity, &rc), "{\"greeting\":\"hello, m\"}");
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(test::run_shell(curl, &rc), "");
  EXPECT_NE(rc, 0);
  EXPECT_EQ(server_->stats().requests, 1u);

  server_.reset();
  start("resp", client.cert());
  const std::string cli = "redis-cli --tls --cacert " + files_.cert() + " -h 127.0.0.1 -p " + port_;
  EXPECT_EQ(test::run_shell(cli + identity + " GREET cli", &rc), "hello, cli\n");
  EXPECT_EQ(rc, 0);
  test::run_shell(cli + " GREET cli 2>&1", &rc);
  EXPECT_EQ(server_->stats().requests, 1u);
}

// Our resp client against a real redis-server's TLS port, verifying its certificate, and
// presenting the client certificate redis-server requires (tls-auth-clients, from its CA file);
// without one, its calls fail.
TEST(tls_peer_interop, our_resp_client_against_redis_server_over_tls) {
  WIREBENCH_REQUIRE_PEER("redis-server", "redis-server");
  test::cert_files files, member("member");
  const int port = test::free_loopback_port();
  test::child_process redis({"redis-server", "--port", "0", "--tls-port", std::to_string(port),
                             "--bind", "127.0.0.1", "--tls-cert-file", files.cert(),
                             "--tls-key-file", files.key(), "--tls-ca-cert-file", member.cert(),
                             "--tls-auth-clients", "yes", "--save", "", "--appendonly", "no",
                             "--dir", files.dir().string()});
  ASSERT_TRUE(test::wait_for_listener(port));
  client_config cc = verifying_client(port, files.cert());
  user_call ping;
  ping.request = resp_call{.args = {"SET", "k:__rand_int__", "v"}};
  cc.calls = {ping};
  cc.tls.certificate_file = member.cert();
  cc.tls.private_key_file = member.key();
  auto client = test::builtin_protocol("resp").make_client(cc);
  expect_all_succeed(*client, 50);

  cc.tls.certificate_file.clear();
  cc.tls.private_key_file.clear();
  const auto r = greet_sync(*test::builtin_protocol("resp").make_client(cc), "x");
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.ec) << "redis-server served a client without a certificate";
}

// Mutual TLS and SNI against nginx: it requires a client certificate from our CA
// (ssl_verify_client) and answers with the name our client sent ($ssl_server_name), while the
// client dials 127.0.0.1 and verifies nginx's certificate for that name (tls_options::server_name).
TEST(tls_peer_interop, our_http_clients_send_sni_and_client_certificates_to_nginx) {
  WIREBENCH_REQUIRE_PEER("nginx", "nginx-light");
  test::cert_files server("wirebench.test"), member("member"), stranger("stranger");
  test::nginx_server nginx("nginx-mtls",
                           "    location /greet { default_type application/json; "
                           "return 200 '{\"greeting\":\"hello, $ssl_server_name\"}'; }\n",
                           "  ssl_verify_client on;\n  ssl_client_certificate " + member.cert() + ";\n",
                           {server.cert(), server.key()});
  ASSERT_TRUE(nginx.started()) << "nginx did not start";
  for (const char* protocol : {"http1", "http2"}) {
    SCOPED_TRACE(protocol);
    client_config cc = verifying_client(nginx.tls_port(), server.cert());
    cc.tls.server_name = "wirebench.test";
    cc.tls.certificate_file = member.cert();
    cc.tls.private_key_file = member.key();
    // The greeting names the SNI nginx saw: "hello, wirebench.test" only when it was sent.
    auto client = test::builtin_protocol(protocol).make_client(cc);
    for (int i = 0; i < 20; ++i) {
      const auto r = greet_sync(*client, "wirebench.test");
      ASSERT_FALSE(r.ec) << r.ec.message() << ": " << r.reply;
    }
    // nginx answers a client without a certificate, or with another CA's, with 400.
    const test::cert_files* const identities[] = {nullptr, &stranger};
    for (const test::cert_files* identity : identities) {
      client_config without = cc;
      without.tls.certificate_file = identity ? identity->cert() : "";
      without.tls.private_key_file = identity ? identity->key() : "";
      const auto r = greet_sync(*test::builtin_protocol(protocol).make_client(without), "wirebench.test");
      ASSERT_TRUE(r.completed);
      EXPECT_TRUE(r.ec) << "served without a certificate nginx trusts";
    }
  }
}

// Our http1 and http2 clients against nginx over TLS (ALPN http/1.1 and h2 on one port),
// verifying its certificate, with nginx's default keep-alive limit closing connections.
TEST(tls_peer_interop, our_http_clients_against_nginx_over_tls) {
  WIREBENCH_REQUIRE_PEER("nginx", "nginx-light");
  test::cert_files files;
  test::nginx_server nginx("nginx-tls",
                           "    location /greet { default_type application/json; "
                           "return 200 '{\"greeting\":\"hello, $arg_name\"}'; }\n",
                           "  keepalive_requests 100;\n", {files.cert(), files.key()});
  ASSERT_TRUE(nginx.started()) << "nginx did not start";
  for (const char* protocol : {"http1", "http2"}) {
    SCOPED_TRACE(protocol);
    auto client = test::builtin_protocol(protocol).make_client(verifying_client(nginx.tls_port(), files.cert()));
    test::expect_each_call_completes_once(*client, 2, 150);
  }
}

}  // namespace
}  // namespace wirebench
