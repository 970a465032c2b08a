// Every registered protocol, over every transport: round trips, exact bytes on the wire, calls
// from many threads at once, each completing exactly once.
#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "support/concurrent_calls.hpp"
#include "support/protocol_cases.hpp"
#include "support/raw_socket.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

struct greet_case {
  std::string protocol;
  std::string transport;
};

// What the test's name carries (`# GetParam() = mux over unix` in ctest), not the struct's bytes.
void PrintTo(const greet_case& c, std::ostream* os) { *os << c.protocol << " over " << c.transport; }

class greet : public ::testing::TestWithParam<greet_case> {
 protected:
  void SetUp() override {
    proto_ = protocol_registry::builtin().find(GetParam().protocol);
    ASSERT_NE(proto_, nullptr);
    server_config sc;
    sc.listen = endpoint::parse_or_throw(test::transport_endpoint(GetParam().transport));
    sc.threads = 2;
    // A graceful stop waits this long for what is under way: grpc++ counts an open bidi stream
    // (grpcpp-stream, -batch) as under way until the grace ends, 5 s by default; 1 s does here.
    sc.grace = 1s;
    // A server that runs a program of its own needs it (its Debian package has its name).
    if (!proto_->reference.server_program.empty())
      WIREBENCH_REQUIRE_PEER(proto_->reference.server_program, proto_->reference.server_program);
    // gRPC says why a dial failed only in its log, at INFO: in a failing gRPC test's output, then.
    // (Each test is a process of its own; gRPC reads this when it starts, below.)
    ::setenv("GRPC_VERBOSITY", "INFO", /*overwrite=*/0);
    server_ = proto_->make_server(sc);
  }
  std::unique_ptr<protocol_client> client(std::size_t connections, std::size_t threads = 1) {
    client_config cc;
    cc.connect = server_->local_endpoint();
    cc.connections = connections;
    cc.threads = threads;
    return proto_->make_client(cc);
  }
  const protocol* proto_ = nullptr;
  std::unique_ptr<protocol_server> server_;
};

TEST_P(greet, round_trip) {
  auto c = client(1);
  for (const char* name : {"alice", "b", "with space", "ünïcödé", ""}) {
    auto r = test::greet_sync(*c, name);
    ASSERT_TRUE(r.completed);
    EXPECT_FALSE(r.ec) << r.ec.message();
    EXPECT_EQ(r.reply, expected_greeting(name));
  }
  EXPECT_EQ(server_->stats().requests, 5u);
}

// The protocols whose bytes a test can write by hand: http2 and gRPC are binary, HPACK-compressed
// framing, checked against nghttp, curl and h2load (http2) and grpc++'s own stubs (grpc_test).
class greet_bytes : public greet {};

TEST_P(greet_bytes, exact_bytes_on_the_wire) {
  test::raw_socket peer(server_->local_endpoint());
  ASSERT_TRUE(peer.ok());
  const auto& p = GetParam().protocol;
  const std::string requests = test::frame_for(p, "bob", 1, 7) + test::frame_for(p, "bob", 1, 8);
  const std::string replies =
      test::frame_for(p, "hello, bob", 2, 7) + test::frame_for(p, "hello, bob", 2, 8);
  ASSERT_TRUE(peer.send_all(requests));
  // Date is the one header whose bytes a test cannot know ahead.
  EXPECT_EQ(test::mask_http_dates(peer.read_for(5s, replies.size())), replies);
}

TEST_P(greet, pipelined_calls_from_many_threads_each_complete_once_in_order) {
  auto c = client(3, 2);
  test::expect_each_call_completes_once(*c);
}

TEST_P(greet, graceful_stop_answers_what_it_received_then_closes) {
  auto c = client(1);
  for (const char* name : {"before", "again"})
    EXPECT_EQ(test::greet_sync(*c, name).reply, expected_greeting(name));
  const std::uint64_t connections = c->counters().connects;  // 2 for a connection per call
  server_->stop();
  server_->stop();  // idempotent
  auto after = test::greet_sync(*c, "after");
  ASSERT_TRUE(after.completed);
  // Every client dials again for a call after its connection closed, and finds nobody; unless
  // the call went out before the client saw the close, and was lost with the connection.
  EXPECT_TRUE(after.ec == errc::connect_failed || after.ec == errc::connection_closed)
      << after.ec.message();
  // Servers of their own (grpc++, a real redis-server) keep their close reasons to themselves.
  if (!proto_->server_codecs) return;
  // Each connection closed once. The one a client keeps open, the stop closed; a client that
  // opens one per call (http1-close) closed each itself, but perhaps the last, which the stop
  // may have found still open.
  auto reasons = server_->stats().close_reasons;
  std::uint64_t closes = 0;
  for (const auto& [reason, n] : reasons) closes += n;
  EXPECT_EQ(closes, connections);
  if (connections == 1) {
    EXPECT_EQ(reasons["shutting_down"], 1u);
  } else {
    EXPECT_LE(reasons["shutting_down"], 1u);
    EXPECT_GE(reasons["peer_closed"], connections - 1);
  }
}

// Every protocol over every transport it can listen on: one whose server cannot listen on an
// abstract socket (a real redis-server) is left out there rather than skipped.
std::vector<greet_case> all_cases() {
  std::vector<greet_case> cases;
  for (const auto& p : protocol_registry::builtin().all())
    for (const char* t : {"tcp", "tcp6", "unix", "abstract"})
      if (p.can.abstract_sockets || std::string_view(t) != "abstract") cases.push_back({p.name, t});
  return cases;
}

std::vector<greet_case> hand_written_byte_cases() {
  std::vector<greet_case> cases;
  for (auto& c : all_cases())
    if (protocol_registry::builtin().find(c.protocol)->test.wire.request) cases.push_back(std::move(c));
  return cases;
}

std::string case_name(const ::testing::TestParamInfo<greet_case>& info) {
  return test::test_name_for(info.param.protocol + "_" + info.param.transport);
}

INSTANTIATE_TEST_SUITE_P(all, greet, ::testing::ValuesIn(all_cases()), case_name);
INSTANTIATE_TEST_SUITE_P(all, greet_bytes, ::testing::ValuesIn(hand_written_byte_cases()), case_name);

TEST(registry, lists_both_foundation_protocols_and_refuses_duplicates) {
  const auto& r = protocol_registry::builtin();
  EXPECT_NE(r.find("line"), nullptr);
  EXPECT_NE(r.find("length-prefixed"), nullptr);
  EXPECT_EQ(r.find("nope"), nullptr);
  protocol_registry mine;
  mine.add(*r.find("line"));
  EXPECT_THROW(mine.add(*r.find("line")), std::invalid_argument);
}

// Every client is made by the registry, and one on the client engine names its codec there (the
// fuzz targets drive the codecs through it; clients with a transport of their own, gRPC's and
// resp-sync's, have none). A codec from the registry encodes a call to bytes with no connection
// at all; where the protocol's bytes can be written by hand, the name is in them as it was given.
TEST(registry, every_engine_client_exposes_its_codec) {
  client_config config;
  std::size_t engine_clients = 0;
  for (const protocol& p : protocol_registry::builtin().all()) {
    SCOPED_TRACE(p.name);
    ASSERT_TRUE(p.make_client);
    if (!p.client_codecs) continue;
    ++engine_clients;
    auto codec = p.client_codecs(config)();
    gather_queue out;
    ASSERT_FALSE(codec->open(out));
    ASSERT_FALSE(codec->encode(1, "bob", out));
    ASSERT_FALSE(codec->produce(out));
    std::string bytes;
    out.for_each_segment([&](std::span<const std::byte> s) { bytes += as_text(s); });
    EXPECT_FALSE(bytes.empty());
    if (p.test.wire.request) {
      EXPECT_NE(bytes.find("bob"), std::string::npos) << bytes;
    }
  }
  EXPECT_GE(engine_clients, 8u);
}

}  // namespace
}  // namespace wirebench
