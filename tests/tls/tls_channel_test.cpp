// The sans-IO TLS channel, a client and a server paired in memory: the handshake with ALPN h2,
// data both ways (larger than one record), certificate verification by name and address, and
// every failure as an error code with an alert for the peer: no agreed ALPN, a wrong name,
// garbage instead of records, a close_notify.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/cert_files.hpp"
#include "wirebench/tls/tls_channel.hpp"
#include "wirebench/tls/tls_context.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::tls {
namespace {

using role = tls_channel::role;

using test::cert_files;

struct pair_result {
  std::error_code client, server;
  std::string client_plain, server_plain;
};

// Moves output between the two until neither has anything to say. `byte_at_a_time` feeds each
// side one byte per receive(), the worst split a transport can make.
pair_result pump(tls_channel& client, tls_channel& server, bool byte_at_a_time = false) {
  pair_result r;
  for (int round = 0; round < 50; ++round) {
    const std::string to_server = client.take_output();
    const std::string to_client = server.take_output();
    if (to_server.empty() && to_client.empty()) break;
    auto feed = [&](tls_channel& ch, const std::string& bytes, std::string& plain, std::error_code& ec) {
      if (ec || bytes.empty()) return;
      if (!byte_at_a_time) {
        ec = ch.receive(as_bytes(bytes), plain);
        return;
      }
      for (std::size_t i = 0; i < bytes.size() && !ec; ++i)
        ec = ch.receive(as_bytes(std::string_view(bytes).substr(i, 1)), plain);
    };
    feed(server, to_server, r.server_plain, r.server);
    feed(client, to_client, r.client_plain, r.client);
  }
  return r;
}

// Contexts and a client/server pair asking for `client_alpn` and offering `server_alpn`.
struct channel_pair {
  channel_pair(std::string_view client_alpn = "h2", std::string_view server_alpn = "h2")
      : server_ctx(make_server_context({}, {server_alpn, true})),
        client_ctx(make_client_context(test::insecure_client_options(), client_alpn)),
        client(client_ctx.get(), role::client, "localhost", client_alpn),
        server(server_ctx.get(), role::server, "", server_alpn) {}
  context_ptr server_ctx, client_ctx;
  tls_channel client, server;
};

TEST(tls_channel, handshake_agrees_on_h2_and_carries_data_both_ways) {
  channel_pair p;
  tls_channel& client = p.client;
  tls_channel& server = p.server;

  const std::string request(100 * 1024, 'q');  // several records
  ASSERT_FALSE(client.send(request));  // held until the handshake completes
  EXPECT_FALSE(client.established());
  pair_result r = pump(client, server);
  ASSERT_FALSE(r.client) << client.failure();
  ASSERT_FALSE(r.server) << server.failure();
  EXPECT_TRUE(client.established());
  EXPECT_TRUE(server.established());
  EXPECT_EQ(client.negotiated_alpn(), "h2");
  EXPECT_EQ(server.negotiated_alpn(), "h2");
  EXPECT_EQ(r.server_plain, request);

  ASSERT_FALSE(server.send("reply"));
  r = pump(client, server);
  EXPECT_EQ(r.client_plain, "reply");
}

TEST(tls_channel, survives_input_split_into_single_bytes) {
  channel_pair p;
  ASSERT_FALSE(p.client.send("ping"));
  const pair_result r = pump(p.client, p.server, true);
  ASSERT_FALSE(r.client);
  ASSERT_FALSE(r.server);
  EXPECT_EQ(r.server_plain, "ping");
}

// A client that offers other protocols than h2, or no ALPN at all, gets the server's
// no_application_protocol alert: not a handshake without h2 that the server then closes
// without a word.
TEST(tls_channel, a_client_without_h2_gets_the_no_application_protocol_alert) {
  for (const char* offer : {"http/1.1", ""}) {
    SCOPED_TRACE(std::string("client offers '") + offer + "'");
    channel_pair p(offer, "h2");
    ASSERT_FALSE(p.client.send("x"));
    const pair_result r = pump(p.client, p.server);
    EXPECT_EQ(r.server, errc::tls_failed);
    EXPECT_EQ(r.client, errc::tls_failed);
    EXPECT_NE(p.client.failure().find("no application protocol"), std::string::npos)
        << p.client.failure();
    EXPECT_TRUE(r.server_plain.empty());
  }
}

TEST(tls_channel, a_client_insisting_on_alpn_fails_when_the_server_offers_none) {
  channel_pair p("h2", "");
  ASSERT_FALSE(p.client.send("x"));
  const pair_result r = pump(p.client, p.server);
  EXPECT_EQ(r.client, errc::tls_failed);
  EXPECT_NE(p.client.failure().find("ALPN"), std::string::npos) << p.client.failure();
}

TEST(tls_channel, verification_accepts_the_certificates_names_and_refuses_others) {
  cert_files files;
  tls_options server_options;
  server_options.certificate_file = files.cert();
  server_options.private_key_file = files.key();
  auto server_ctx = make_server_context(server_options, {"h2", true});
  tls_options client_options;
  client_options.ca_file = files.cert();  // self-signed: it is its own CA
  auto client_ctx = make_client_context(client_options, "h2");

  for (const char* good : {"localhost", "127.0.0.1", "::1"}) {
    tls_channel client(client_ctx.get(), role::client, good, "h2");
    tls_channel server(server_ctx.get(), role::server, "", "h2");
    ASSERT_FALSE(client.send("x"));
    const pair_result r = pump(client, server);
    EXPECT_FALSE(r.client) << good << ": " << client.failure();
    EXPECT_EQ(r.server_plain, "x") << good;
  }
  tls_channel client(client_ctx.get(), role::client, "example.com", "h2");
  tls_channel server(server_ctx.get(), role::server, "", "h2");
  ASSERT_FALSE(client.send("x"));
  const pair_result r = pump(client, server);
  EXPECT_EQ(r.client, errc::tls_failed);
  EXPECT_NE(client.failure().find("certificate"), std::string::npos) << client.failure();
  EXPECT_TRUE(r.server_plain.empty());  // nothing was sent to a server we do not trust
}

TEST(tls_channel, a_client_with_a_ca_refuses_a_server_it_does_not_trust) {
  auto server_ctx = make_server_context({}, {"h2", true});  // a fresh self-signed certificate
  cert_files other;                                 // trusted: a different certificate
  tls_options client_options;
  client_options.ca_file = other.cert();
  auto client_ctx = make_client_context(client_options, "h2");
  tls_channel client(client_ctx.get(), role::client, "localhost", "h2");
  tls_channel server(server_ctx.get(), role::server, "", "h2");
  ASSERT_FALSE(client.send("x"));
  EXPECT_EQ(pump(client, server).client, errc::tls_failed);
}

TEST(tls_channel, garbage_instead_of_a_client_hello_is_an_error_that_stays) {
  auto server_ctx = make_server_context({}, {"h2", true});
  tls_channel server(server_ctx.get(), role::server, "", "h2");
  std::string plain;
  EXPECT_EQ(server.receive(as_bytes("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), plain), errc::tls_failed);
  // OpenSSL recognises plain HTTP and says so (no alert: the peer does not speak TLS).
  EXPECT_NE(server.failure().find("http request"), std::string::npos) << server.failure();
  EXPECT_EQ(server.receive(as_bytes("more"), plain), errc::tls_failed);  // stays failed
}

TEST(tls_channel, close_notify_reads_as_peer_closed) {
  channel_pair p;
  ASSERT_FALSE(p.client.send("x"));
  ASSERT_FALSE(pump(p.client, p.server).server);
  p.client.shutdown();
  EXPECT_EQ(pump(p.client, p.server).server, errc::peer_closed);
}

TEST(tls_options_files, a_missing_key_or_certificate_file_is_a_clear_start_up_error) {
  tls_options o;
  o.certificate_file = "/nonexistent/cert.pem";
  o.private_key_file = "/nonexistent/key.pem";
  try {
    make_server_context(o, {"h2", true});
    FAIL() << "no exception";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/cert.pem"), std::string::npos) << e.what();
  }
  o.private_key_file.clear();
  EXPECT_THROW(make_server_context(o, {"h2", true}), std::runtime_error);
}

}  // namespace
}  // namespace wirebench::tls
