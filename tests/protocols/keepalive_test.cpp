// Keep-alive pings (transport/keepalive.hpp) on every protocol that has a ping (protocol_capabilities::keepalive):
// our clients find a server that stopped answering long before their calls' deadlines, our servers
// close connections whose client went silent, both sides answer the other's pings so that an
// idle connection lives on, and a grpcio channel outlives our server's pings. The
// registry refuses keep-alive for a protocol without a ping.
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/cert_files.hpp"
#include "support/raw_socket.hpp"
#include "support/require_peer.hpp"
#include "support/silent_server.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

// Protocols whose client (on the client engine) pings, and those whose server (ours) does.
std::vector<std::string> pinging_clients() {
  std::vector<std::string> names;
  for (const protocol& p : protocol_registry::builtin().all())
    if (p.can.keepalive && p.client_codecs) names.push_back(p.name);
  return names;
}
std::vector<std::string> pinging_servers() {
  std::vector<std::string> names;
  for (const protocol& p : protocol_registry::builtin().all())
    if (p.can.keepalive && p.server_codecs && p.reference.server_of.empty()) names.push_back(p.name);
  return names;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& ch : name)
    if (ch == '-') ch = '_';
  return name;
}

std::uint64_t closed_for(const protocol_server& server, const std::string& reason) {
  const auto reasons = server.stats().close_reasons;
  return reasons.contains(reason) ? reasons.at(reason) : 0;
}

class keepalive_client : public ::testing::TestWithParam<std::string> {
 protected:
  const protocol& proto() const { return *protocol_registry::builtin().find(GetParam()); }
};

// A server that took the connection and answers nothing (a stopped process, a dead path: TCP
// reports neither): the unanswered ping fails the call with keepalive_timeout, not its 10 s deadline.
TEST_P(keepalive_client, a_server_that_stops_answering_fails_calls_with_keepalive_timeout) {
  test::silent_server silent;
  client_config cc;
  cc.connect = silent.where();
  cc.reply_timeout = 10s;
  cc.keepalive = {.interval = 100ms, .timeout = 200ms};
  auto client = proto().make_client(cc);
  const auto t0 = clock_type::now();
  const auto r = test::greet_sync(*client, "x");
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(r.ec, errc::keepalive_timeout) << r.ec.message();
  EXPECT_LT(clock_type::now() - t0, 5s) << "the ping, not the deadline, ended the call";
}

// Both sides ping an idle connection (the client with without_calls) every 50 ms; each answers
// the other's, so the connection lives through 400 ms of idleness and then serves. In the clear
// and over TLS (the pings sealed like any other bytes).
TEST_P(keepalive_client, an_idle_connection_pinged_by_both_sides_lives_and_serves) {
  test::cert_files files;
  for (const bool tls : {false, true}) {
    SCOPED_TRACE(tls ? "over TLS" : "in the clear");
    server_config sc;
    sc.keepalive = {.interval = 50ms, .timeout = 2s};
    sc.tls.enabled = tls;
    sc.tls.certificate_file = tls ? files.cert() : "";
    sc.tls.private_key_file = tls ? files.key() : "";
    const protocol& server_proto =
        *protocol_registry::builtin().find(proto().reference.server_of.empty() ? GetParam() : proto().reference.server_of);
    auto server = server_proto.make_server(sc);
    client_config cc;
    cc.connect = server->local_endpoint();
    cc.keepalive = {.interval = 50ms, .timeout = 2s, .without_calls = true};
    cc.tls.enabled = tls;
    cc.tls.ca_file = tls ? files.cert() : "";
    auto client = proto().make_client(cc);
    ASSERT_EQ(test::greet_sync(*client, "before").reply, "hello, before");
    std::this_thread::sleep_for(400ms);
    EXPECT_EQ(test::greet_sync(*client, "after").reply, "hello, after");
    EXPECT_EQ(client->counters().connects, 1u);
    EXPECT_EQ(server->stats().accepted, 1u);
    EXPECT_EQ(closed_for(*server, "keepalive_timeout"), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(all, keepalive_client, ::testing::ValuesIn(pinging_clients()), test_name);

class keepalive_server : public ::testing::TestWithParam<std::string> {};

// A client that connects and says nothing more (a host gone without a FIN): pinged after 100 ms
// of silence, closed 200 ms later, as close reason keepalive_timeout.
TEST_P(keepalive_server, a_client_that_goes_silent_is_closed_with_keepalive_timeout) {
  server_config sc;
  sc.keepalive = {.interval = 100ms, .timeout = 200ms};
  auto server = protocol_registry::builtin().find(GetParam())->make_server(sc);
  test::raw_socket silent(server->local_endpoint());
  EXPECT_TRUE(silent.closed_by_peer_within(5s));
  for (int i = 0; i < 500 && closed_for(*server, "keepalive_timeout") == 0; ++i)
    std::this_thread::sleep_for(10ms);  // counted on the server's thread, a moment later
  EXPECT_EQ(closed_for(*server, "keepalive_timeout"), 1u);
}

INSTANTIATE_TEST_SUITE_P(all, keepalive_server, ::testing::ValuesIn(pinging_servers()), test_name);

TEST(keepalive, a_protocol_without_a_ping_refuses_it_on_both_sides) {
  const protocol& line = *protocol_registry::builtin().find("line");
  ASSERT_FALSE(line.can.keepalive);
  client_config cc;
  cc.keepalive.interval = 1s;
  EXPECT_THROW(line.make_client(cc), setting_error);
  server_config sc;
  sc.keepalive.interval = 1s;
  EXPECT_THROW(line.make_server(sc), setting_error);
}

// grpcio (gRPC core, in Python) keeps a channel idle for a second while our gRPC server pings it
// every 100 ms: it answers, and its next call goes on the same connection. (curl would be the
// HTTP/2 peer here, but curl 7.88's --rate fails every reused HTTP/2 connection, nghttpd's too.)
TEST(keepalive, a_grpcio_channel_outlives_our_servers_pings) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  server_config sc;
  sc.keepalive = {.interval = 100ms, .timeout = 3s};
  auto server = protocol_registry::builtin().find("grpc")->make_server(sc);
  const std::string out =
      test::run_shell(std::string(test::debian_python3) + " " + WIREBENCH_GRPCIO_PEER + " idle " +
                      std::to_string(server->local_endpoint().port) + " 1");
  EXPECT_EQ(out, "hello, a\nhello, b\n");
  EXPECT_EQ(server->stats().accepted, 1u);
  EXPECT_EQ(closed_for(*server, "keepalive_timeout"), 0u);
}

// grpcpp passes the settings to grpc++ as channel arguments, on both sides: calls before and
// after an idle spell pinged both ways are served.
TEST(keepalive, grpcpp_takes_the_settings_on_both_sides) {
  const protocol& grpcpp = *protocol_registry::builtin().find("grpcpp");
  ASSERT_TRUE(grpcpp.can.keepalive);
  server_config sc;
  sc.keepalive = {.interval = 100ms, .timeout = 3s};
  auto server = grpcpp.make_server(sc);
  client_config cc;
  cc.connect = server->local_endpoint();
  cc.keepalive = {.interval = 100ms, .timeout = 3s, .without_calls = true};
  auto client = grpcpp.make_client(cc);
  EXPECT_EQ(test::greet_sync(*client, "before").reply, "hello, before");
  std::this_thread::sleep_for(400ms);
  EXPECT_EQ(test::greet_sync(*client, "after").reply, "hello, after");
}

}  // namespace
}  // namespace wirebench
