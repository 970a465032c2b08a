// Connect, gRPC and gRPC-Web against connect-node (@connectrpc/connect-node 2.1.1, Connect's
// Node.js implementation: tests/protocols/connectnode_peer), both ways: its client in the three
// protocols, every shape, proto and JSON, over HTTP/2 and HTTP/1.1, against our server; our
// clients (unary, the id-multiplexed streams, JSON, HTTP/1.1) against its server, errors counted
// by code. The peer reads the service from a descriptor set protoc writes here (no generated
// code). Missing, it skips, naming what installs it, and fails under CI=true.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "support/child_process.hpp"
#include "support/concurrent_calls.hpp"
#include "support/protocol_cases.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "test_paths.h"
#include "wirebench/core/error.hpp"
#include "wirebench/core/error_condition.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

// proto/echo.proto as a FileDescriptorSet, for the peer: written once per process.
const std::string& echo_descriptor_set() {
  static const std::string path = [] {
    const std::string out = ::testing::TempDir() + "/echo-" + std::to_string(::getpid()) + ".desc";
    int rc = 0;
    const std::string said = test::run_shell("protoc --include_imports --descriptor_set_out=" + out + " -I " +
                                                 WIREBENCH_PROTO_DIR + " " + WIREBENCH_PROTO_DIR + "/echo.proto 2>&1",
                                             &rc);
    EXPECT_EQ(rc, 0) << said;
    return out;
  }();
  return path;
}

// connectnode_peer's `call`: every reply's line, or its error's.
std::string node_call(const std::string& peer, const std::string& url, const std::string& args) {
  int rc = 0;
  const std::string out =
      test::run_shell(peer + " call -descriptor " + echo_descriptor_set() + " -url " + url + " " + args + " 2>&1", &rc);
  EXPECT_EQ(rc, 0) << out;
  return out;
}

TEST(connectnode_interop, connect_node_calls_our_server_in_every_protocol_shape_and_codec) {
  WIREBENCH_REQUIRE_NPM_TOOL(peer, "connectnode_peer", WIREBENCH_CONNECTNODE_PEER_VERSION);
  server_config sc;
  sc.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  auto server = test::builtin_protocol("grpc").make_server(sc);
  const std::string url = "http://127.0.0.1:" + std::to_string(server->local_endpoint().port);
  for (const char* protocol : {"connect", "grpc", "grpcweb"}) {
    SCOPED_TRACE(protocol);
    const std::string with = std::string("-protocol ") + protocol;
    EXPECT_EQ(node_call(peer, url, with + " -method greet -text node"), "reply: hello, node\n");
    EXPECT_EQ(node_call(peer, url, with + " -method get -text 'a b'"), "reply: a b\n");
    EXPECT_EQ(node_call(peer, url, with + " -method expand -text 'a b'"), "reply: a\nreply: b\n");
    EXPECT_EQ(node_call(peer, url, with + " -method collect -text 'a b'"), "reply: ab\n");
    EXPECT_EQ(node_call(peer, url, with + " -method update -text 'a b'"), "reply: a\nreply: b\n");
    // In JSON (gRPC's JSON codec is not one connect-node's gRPC transport offers).
    if (std::string_view(protocol) != "grpc") {
      EXPECT_EQ(node_call(peer, url, with + " -json -method expand -text 'j k'"), "reply: j\nreply: k\n");
      EXPECT_EQ(node_call(peer, url, with + " -json -method collect -text 'j k'"), "reply: jk\n");
    }
  }
  // Over HTTP/1.1 on the same port: every shape but a bidirectional stream, which needs HTTP/2:
  // 505, which connect-node reads as Unknown (with gRPC-Web's grpc-message, when there is one).
  for (const auto& [protocol, bidi] :
       {std::pair<const char*, const char*>{"connect", "error: Unknown: HTTP 505\n"},
        {"grpcweb", "error: Unknown: a bidirectional stream needs HTTP/2\n"}}) {
    SCOPED_TRACE(protocol);
    const std::string with = std::string("-http1 -protocol ") + protocol;
    EXPECT_EQ(node_call(peer, url, with + " -method greet -text h1"), "reply: hello, h1\n");
    EXPECT_EQ(node_call(peer, url, with + " -method expand -text 'a b'"), "reply: a\nreply: b\n");
    EXPECT_EQ(node_call(peer, url, with + " -method collect -text 'a b'"), "reply: ab\n");
    EXPECT_EQ(node_call(peer, url, with + " -method update -text 'a b'"), bidi);
  }
}

// Our clients against connect-node's server, on h2c and (a server of its own) HTTP/1.1: each
// greeting, the id-multiplexed streams, and its errors counted by their code.
TEST(connectnode_interop, our_clients_call_a_connect_node_server) {
  WIREBENCH_REQUIRE_NPM_TOOL(peer, "connectnode_peer", WIREBENCH_CONNECTNODE_PEER_VERSION);
  for (const bool http1 : {false, true}) {
    SCOPED_TRACE(http1 ? "HTTP/1.1" : "h2c");
    const int port = test::free_loopback_port();
    std::vector<std::string> argv = {peer, "serve", "-descriptor", echo_descriptor_set(), "-port", std::to_string(port)};
    if (http1) argv.emplace_back("-http1");
    test::child_process server(argv);
    ASSERT_TRUE(test::wait_for_listener(port, 20s));
    client_config cc;
    cc.connect = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));
    cc.reply_timeout = 10s;
    const std::vector<std::pair<std::string, std::string>> clients =
        http1 ? std::vector<std::pair<std::string, std::string>>{{"connect-h1", "connect_unavailable"},
                                                                 {"connect-json-h1", "connect_unavailable"},
                                                                 {"grpc-web-h1", "status_UNAVAILABLE"}}
              : std::vector<std::pair<std::string, std::string>>{{"grpc", "status_UNAVAILABLE"},
                                                                 {"connect", "connect_unavailable"},
                                                                 {"connect-json", "connect_unavailable"},
                                                                 {"grpc-web", "status_UNAVAILABLE"}};
    for (const auto& [protocol, unavailable] : clients) {
      SCOPED_TRACE(protocol);
      auto client = test::builtin_protocol(protocol).make_client(cc);
      for (const char* name : {"ann", "\xc3\xbc"}) {
        const auto r = test::greet_sync(*client, name);
        EXPECT_FALSE(r.ec) << error_name(r.ec) << ": " << r.reply;
        EXPECT_EQ(r.reply, "hello, " + std::string(name));
      }
      const auto r = test::greet_sync(*client, "fail:unavailable");
      EXPECT_EQ(error_name(r.ec), unavailable) << r.reply;
      EXPECT_EQ(r.reply, "failed as asked");
    }
    if (http1) continue;
    for (const char* protocol : {"connect-stream", "grpc-stream"}) {
      SCOPED_TRACE(protocol);
      auto client = test::builtin_protocol(protocol).make_client(cc);
      test::expect_each_call_completes_once(*client, 4, 100);
    }
  }
}

}  // namespace
}  // namespace wirebench
