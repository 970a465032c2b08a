// Every protocol that speaks TLS (protocol_capabilities::tls), over TLS: our server's TLS layer under its
// session (tls_server_handler) and our client's under its codec (tls_client_codec), or gRPC's
// own TLS credentials, verified against the server's certificate; and what happens when one side does not speak TLS, speaks
// garbage, or is not the server the client trusts. The peers we did not write (curl, redis-cli,
// nginx, redis-server) are in tls_interop_test.cpp.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "support/cert_files.hpp"
#include "support/concurrent_calls.hpp"
#include "support/raw_socket.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> tls_protocols() {
  std::vector<std::string> names;
  for (const protocol& p : protocol_registry::builtin().all())
    if (p.can.tls) names.push_back(p.name);
  return names;
}

class over_tls : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    proto_ = protocol_registry::builtin().find(GetParam());
    server_config sc;
    sc.threads = 2;
    sc.tls.enabled = true;
    sc.tls.certificate_file = files_.cert();
    sc.tls.private_key_file = files_.key();
    server_ = proto_->make_server(sc);
  }
  // A client that verifies the server against its certificate (its own CA).
  client_config verifying(std::size_t connections = 1) const {
    client_config cc;
    cc.connect = server_->local_endpoint();
    cc.connections = connections;
    cc.reply_timeout = 10s;
    cc.tls.enabled = true;
    cc.tls.ca_file = files_.cert();
    return cc;
  }
  // How many connections the server closed for `reason`, once that count is at least `at_least`
  // (closes are counted on the server's threads, a moment after the client sees them).
  std::uint64_t closed_for(const std::string& reason, std::uint64_t at_least = 1) const {
    std::uint64_t n = 0;
    for (int i = 0; i < 500 && n < at_least; ++i) {
      const auto reasons = server_->stats().close_reasons;
      n = reasons.contains(reason) ? reasons.at(reason) : 0;
      if (n < at_least) std::this_thread::sleep_for(10ms);
    }
    return n;
  }

  test::cert_files files_;
  const protocol* proto_ = nullptr;
  std::unique_ptr<protocol_server> server_;
};

TEST_P(over_tls, round_trips_verified_and_each_call_completes_once) {
  auto client = proto_->make_client(verifying(2));
  const auto r = test::greet_sync(*client, "alice");
  ASSERT_TRUE(r.completed);
  ASSERT_FALSE(r.ec) << r.ec.message();
  EXPECT_EQ(r.reply, "hello, alice");
  test::expect_each_call_completes_once(*client, 4, 250);
  EXPECT_EQ(server_->stats().requests, 1001u);
}

// A request and its reply larger than one TLS record (16 KiB; HTTP/1.1 aside, see below): the
// server's TLS layer keeps the plaintext its session has not consumed yet, across records and
// reads.
TEST_P(over_tls, a_call_larger_than_a_record_round_trips) {
  auto client = proto_->make_client(verifying());
  // HTTP/1.1 carries the name in its request line, which our server limits to 16 KiB of headers.
  const std::string name(GetParam().starts_with("http1") ? 15 * 1024 : 40 * 1024, 'x');
  const auto r = test::greet_sync(*client, name);
  ASSERT_TRUE(r.completed);
  ASSERT_FALSE(r.ec) << r.ec.message();
  EXPECT_EQ(r.reply, expected_greeting(name));
}

TEST_P(over_tls, a_server_the_client_does_not_trust_fails_the_call_as_tls_failed) {
  test::cert_files stranger;  // the same names, another key
  client_config cc = verifying();
  cc.tls.ca_file = stranger.cert();
  cc.connect_timeout = 2s;
  auto client = proto_->make_client(cc);
  const auto r = test::greet_sync(*client, "x");
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.ec, errc::tls_failed) << r.ec.message();
  // With the reason, in OpenSSL's words (gRPC's status message carries them too).
  EXPECT_NE(r.reply.find("certificate verify failed"), std::string::npos) << r.reply;

  // No CA given: the system's CAs, which do not know a self-signed certificate (as curl).
  cc.tls.ca_file.clear();
  auto by_default = proto_->make_client(cc);
  const auto d = test::greet_sync(*by_default, "x");
  ASSERT_TRUE(d.completed);
  EXPECT_EQ(d.ec, errc::tls_failed) << d.ec.message();
}

TEST_P(over_tls, an_insecure_client_takes_a_certificate_it_cannot_verify) {
  client_config cc = verifying();
  cc.tls.ca_file.clear();
  cc.tls.insecure = true;
  auto client = proto_->make_client(cc);
  EXPECT_EQ(test::greet_sync(*client, "k").reply, "hello, k");
}

// Mutual TLS: a server given a client CA (--tls-client-ca) serves the clients that present a
// certificate it signed (--cert/--key), verifying the server or not; one with no certificate, or
// another's, fails its call as tls_failed, and the server goes on serving.
TEST_P(over_tls, a_server_requiring_client_certificates_serves_only_those_its_ca_signed) {
  test::cert_files member("member"), stranger("stranger");
  server_config sc;
  sc.tls.enabled = true;
  sc.tls.certificate_file = files_.cert();
  sc.tls.private_key_file = files_.key();
  sc.tls.client_ca_file = member.cert();
  auto server = proto_->make_server(sc);
  auto greet_as = [&](const test::cert_files* identity, bool insecure = false) {
    client_config cc = verifying();
    cc.connect = server->local_endpoint();
    cc.connect_timeout = 3s;
    cc.reply_timeout = 5s;
    if (insecure) {
      cc.tls.ca_file.clear();
      cc.tls.insecure = true;
    }
    if (identity != nullptr) {
      cc.tls.certificate_file = identity->cert();
      cc.tls.private_key_file = identity->key();
    }
    return test::greet_sync(*proto_->make_client(cc), "m");
  };
  EXPECT_EQ(greet_as(&member).reply, "hello, m");
  EXPECT_EQ(greet_as(&member, true).reply, "hello, m");  // gRPC's insecure path is another API
  const test::cert_files* const identities[] = {nullptr, &stranger};
  for (const test::cert_files* identity : identities) {
    SCOPED_TRACE(identity == nullptr ? "no client certificate" : "another CA's");
    const auto refused = greet_as(identity);
    ASSERT_TRUE(refused.completed);
    if (GetParam().starts_with("grpcpp")) {
      // gRPC's client finished its side of the handshake (TLS 1.3) before the server refused it,
      // and reports only "Socket closed": a connection that failed is all it can tell.
      EXPECT_TRUE(refused.ec == errc::tls_failed || refused.ec == errc::connect_failed)
          << refused.ec.message() << ": " << refused.reply;
    } else {
      EXPECT_EQ(refused.ec, errc::tls_failed) << refused.ec.message() << ": " << refused.reply;
    }
  }
  EXPECT_EQ(greet_as(&member).reply, "hello, m");
}

// A client certificate without its key (or a key alone) is refused when the client is made,
// by every TLS protocol, in words that name neither CLI flag (a library user sets tls_options).
TEST_P(over_tls, a_client_certificate_without_its_key_is_refused_at_start_up) {
  test::cert_files member("member");
  for (const bool key_only : {false, true}) {
    client_config cc = verifying();
    (key_only ? cc.tls.private_key_file : cc.tls.certificate_file) = member.cert();
    try {
      proto_->make_client(cc);
      ADD_FAILURE() << "a client was made with " << (key_only ? "a key" : "a certificate") << " alone";
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find("certificate_file and private_key_file go together"),
                std::string::npos)
          << e.what();
    }
  }
}

// The name a client verifies (and sends as SNI) is the address dialed unless one is given
// (--tls-server-name): the certificate names localhost, not "elsewhere.test".
TEST_P(over_tls, the_server_name_given_is_the_one_the_certificate_must_carry) {
  client_config cc = verifying();
  cc.tls.server_name = "localhost";
  EXPECT_EQ(test::greet_sync(*proto_->make_client(cc), "s").reply, "hello, s");
  cc.tls.server_name = "elsewhere.test";
  cc.connect_timeout = 3s;
  const auto r = test::greet_sync(*proto_->make_client(cc), "s");
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.ec, errc::tls_failed) << r.ec.message() << ": " << r.reply;
}

TEST_P(over_tls, a_cleartext_client_and_garbage_are_closed_and_others_still_served) {
  auto good = proto_->make_client(verifying());
  ASSERT_EQ(test::greet_sync(*good, "before").reply, "hello, before");
  {
    test::raw_socket s(server_->local_endpoint());
    s.send_all("this is not a TLS record\r\n\r\n");
    EXPECT_TRUE(s.closed_by_peer_within(5s));
  }
  // gRPC's server keeps no close reasons (server_stats); its connections are its own.
  if (!GetParam().starts_with("grpcpp")) {
    EXPECT_GE(closed_for("tls_failed"), 1u);
  }
  // A cleartext request: the server fails it as a bad record once it has five bytes, a record
  // header's worth (a shorter one, "x\n" on line, waits for more and the call times out).
  client_config plain = verifying();
  plain.tls = {};
  plain.reply_timeout = 2s;
  auto cleartext = proto_->make_client(plain);
  const auto r = test::greet_sync(*cleartext, "x");
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.ec);
  EXPECT_EQ(test::greet_sync(*good, "after").reply, "hello, after");
}

TEST_P(over_tls, a_tls_client_on_a_cleartext_server_fails_its_calls) {
  server_config sc;
  auto cleartext_server = proto_->make_server(sc);
  client_config cc = verifying();
  cc.connect = cleartext_server->local_endpoint();
  auto client = proto_->make_client(cc);
  const auto r = test::greet_sync(*client, "x");
  ASSERT_TRUE(r.completed);
  EXPECT_TRUE(r.ec);
}

INSTANTIATE_TEST_SUITE_P(all, over_tls, ::testing::ValuesIn(tls_protocols()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (auto& ch : n)
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

// --tls is never silently ignored: a protocol without TLS refuses it, on both sides, before
// anything listens or dials. Which protocols those are is part of the contract.
TEST(protocol_registry, a_protocol_without_tls_refuses_a_tls_config) {
  std::set<std::string> refused;
  for (const protocol& p : protocol_registry::builtin().all()) {
    if (p.can.tls) continue;
    server_config sc;
    sc.tls.enabled = true;
    client_config cc;
    cc.tls.enabled = true;
    auto expect_refused = [&p](const char* what, auto make) {
      try {
        make();
        ADD_FAILURE() << p.name << ": a " << what << " was made";
      } catch (const setting_error& e) {
        EXPECT_EQ(e.setting(), "tls");
        EXPECT_EQ(e.detail(), "protocol '" + p.name + "' does not speak TLS here");
      }
    };
    expect_refused("server", [&] { p.make_server(sc); });
    expect_refused("client", [&] { p.make_client(cc); });
    refused.insert(p.name);
  }
  // resp-sync's hiredis (0.14) has no TLS; redis-server is started by us without a TLS port.
  EXPECT_EQ(refused, (std::set<std::string>{"resp-sync", "redis-server"}));
}

}  // namespace
}  // namespace wirebench
