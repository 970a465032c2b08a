// gRPC on our HTTP/2 (`grpc`, `grpc-stream`, `grpc-batch`) against gRPC we did not write, both
// ways: grpc++ (the `grpcpp` backend's clients and server, in this process), grpcio
// (python3-grpcio), grpc-go (grpcgo_peer), grpcurl and ghz (Go modules scripts/setup builds) and
// h2load. Peers that are missing skip, naming the package, and fail under CI=true.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/user_calls.hpp"
#include "support/cert_files.hpp"
#include "support/child_process.hpp"
#include "support/concurrent_calls.hpp"
#include "support/h2load_posts.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

const protocol& ours() { return *protocol_registry::builtin().find("grpc"); }
const protocol& grpcpp_entry() { return *protocol_registry::builtin().find("grpcpp"); }

server_config loopback() {
  server_config sc;
  sc.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  return sc;
}

// Over TLS with the test certificate.
server_config tls_loopback(const test::cert_files& files) {
  server_config sc = loopback();
  sc.tls.enabled = true;
  sc.tls.certificate_file = files.cert();
  sc.tls.private_key_file = files.key();
  return sc;
}

client_config to(const endpoint& where) {
  client_config cc;
  cc.connect = where;
  cc.reply_timeout = 10s;
  return cc;
}

std::string port_of(const protocol_server& s) { return std::to_string(s.local_endpoint().port); }

TEST(grpc_interop, grpcpp_calls_our_server) {
  auto server = ours().make_server(loopback());
  auto client = grpcpp_entry().make_client(to(server->local_endpoint()));
  for (const char* name : {"ann", "bob", "a longer name, with spaces"}) {
    const auto r = test::greet_sync(*client, name);
    ASSERT_TRUE(r.completed);
    EXPECT_FALSE(r.ec) << r.ec.message() << ": " << r.reply;
    EXPECT_EQ(r.reply, std::string("hello, ") + name);
  }
}

TEST(grpc_interop, our_client_calls_the_grpcpp_server) {
  auto server = grpcpp_entry().make_server(loopback());
  auto client = ours().make_client(to(server->local_endpoint()));
  for (const char* name : {"ann", "bob"}) {
    const auto r = test::greet_sync(*client, name);
    ASSERT_TRUE(r.completed);
    EXPECT_FALSE(r.ec) << r.ec.message() << ": " << r.reply;
    EXPECT_EQ(r.reply, std::string("hello, ") + name);
  }
}

TEST(grpc_interop, our_client_over_tls_calls_the_grpcpp_server) {
  test::cert_files files;
  auto server = grpcpp_entry().make_server(tls_loopback(files));
  client_config cc = to(server->local_endpoint());
  cc.tls.enabled = true;
  cc.tls.ca_file = files.cert();
  auto client = ours().make_client(cc);
  const auto r = test::greet_sync(*client, "sealed");
  EXPECT_FALSE(r.ec) << r.ec.message() << ": " << r.reply;
  EXPECT_EQ(r.reply, "hello, sealed");
}

// The stream clients (ours and grpc++'s) call the other's server, many calls in flight on each
// stream, and over TLS ours against grpc++'s: every call completes once, with its own greeting.
TEST(grpc_interop, stream_and_batch_clients_meet_the_other_server_both_ways) {
  auto our_server = ours().make_server(loopback());
  auto their_server = grpcpp_entry().make_server(loopback());
  for (const auto& [client, server] :
       {std::pair{"grpc-stream", their_server.get()}, {"grpc-batch", their_server.get()},
        {"grpcpp-stream", our_server.get()}, {"grpcpp-batch", our_server.get()}}) {
    SCOPED_TRACE(client);
    auto c = protocol_registry::builtin().find(client)->make_client(to(server->local_endpoint()));
    test::expect_each_call_completes_once(*c, 4, 250);
  }
  test::cert_files files;
  auto sealed = grpcpp_entry().make_server(tls_loopback(files));
  client_config cc = to(sealed->local_endpoint());
  cc.tls.enabled = true;
  cc.tls.ca_file = files.cert();
  auto c = protocol_registry::builtin().find("grpc-stream")->make_client(cc);
  test::expect_each_call_completes_once(*c, 2, 100);
}

std::string grpcio_call(const std::string& port, const std::string& method, const std::string& name,
                        const std::string& options = "10") {
  int rc = 0;
  const std::string out = test::run_shell(std::string(test::debian_python3) + " " +
                                              WIREBENCH_GRPCIO_PEER + " call " + port + " " +
                                              method + " '" + name + "' " + options + " 2>&1",
                                          &rc);
  EXPECT_EQ(rc, 0) << out;
  return out;
}

TEST(grpc_interop, grpcio_calls_our_server_and_reads_its_statuses) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  auto server = ours().make_server(loopback());
  EXPECT_EQ(grpcio_call(port_of(*server), "Greet", "py"), "OK\nhello, py\n");
  EXPECT_EQ(grpcio_call(port_of(*server), "Greet", "zipped", "10 gzip"), "OK\nhello, zipped\n");
  EXPECT_EQ(grpcio_call(port_of(*server), "Get", "echoed", "10 gzip"), "OK\nechoed\n");
  EXPECT_EQ(grpcio_call(port_of(*server), "Nope", "x"), "UNIMPLEMENTED\nunknown method Nope\n");
}

// A grpcio server from the same .proto: its greetings plain and gzip-compressed, and a refusal
// counted by its status's name with grpc-message decoded.
TEST(grpc_interop, our_client_calls_a_grpcio_server) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  for (const char* mode : {"", "gzip", "refuse"}) {
    const int port = test::free_loopback_port();
    test::child_process peer({test::debian_python3, WIREBENCH_GRPCIO_PEER, "serve", std::to_string(port), mode});
    ASSERT_TRUE(test::wait_for_listener(port));
    auto client = ours().make_client(to(endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port))));
    const auto r = test::greet_sync(*client, "peer");
    ASSERT_TRUE(r.completed) << mode;
    if (std::string_view(mode) == "refuse") {
      EXPECT_EQ(error_name(r.ec), "status_RESOURCE_EXHAUSTED") << r.ec.message() << ": " << r.reply;
      EXPECT_EQ(r.reply, "busy: 100% \u2014 later");
    } else {
      EXPECT_FALSE(r.ec) << mode << ": " << r.ec.message() << ": " << r.reply;
      EXPECT_EQ(r.reply, "hello, peer") << mode;
    }
  }
}

// grpcio's GreetStream calls our server with 50 requests on one stream: 50 replies, each with
// its request's id and greeting, then OK; our stream clients call grpcio's server.
TEST(grpc_interop, grpcio_and_our_stream_clients_meet_both_ways) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  auto server = ours().make_server(loopback());
  int rc = 0;
  const std::string out = test::run_shell(std::string(test::debian_python3) + " " +
                                              WIREBENCH_GRPCIO_PEER + " stream " +
                                              port_of(*server) + " 50 2>&1",
                                          &rc);
  ASSERT_EQ(rc, 0) << out;
  std::vector<std::string> lines;
  for (std::size_t at = 0; at < out.size();) {
    const std::size_t end = out.find('\n', at);
    lines.push_back(out.substr(at, end - at));
    at = end == std::string::npos ? out.size() : end + 1;
  }
  ASSERT_EQ(lines.size(), 51u) << out;
  EXPECT_EQ(lines.back(), "OK");
  lines.pop_back();
  std::sort(lines.begin(), lines.end());
  std::vector<std::string> expected;
  for (int i = 1; i <= 50; ++i) expected.push_back(std::to_string(i) + " hello, n" + std::to_string(i));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(lines, expected);

  const int port = test::free_loopback_port();
  test::child_process peer({test::debian_python3, WIREBENCH_GRPCIO_PEER, "serve", std::to_string(port)});
  ASSERT_TRUE(test::wait_for_listener(port));
  for (const char* client : {"grpc-stream", "grpc-batch"}) {
    SCOPED_TRACE(client);
    auto c = protocol_registry::builtin().find(client)->make_client(
        to(endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port))));
    test::expect_each_call_completes_once(*c, 2, 200);
  }

  // A server that ends the stream with a status: the calls on it fail with it, and its message.
  const int refusing = test::free_loopback_port();
  test::child_process refuser(
      {test::debian_python3, WIREBENCH_GRPCIO_PEER, "serve", std::to_string(refusing), "refuse"});
  ASSERT_TRUE(test::wait_for_listener(refusing));
  auto c = protocol_registry::builtin().find("grpc-stream")->make_client(
      to(endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(refusing))));
  const auto r = test::greet_sync(*c, "turned away");
  ASSERT_TRUE(r.completed);
  EXPECT_EQ(error_name(r.ec), "status_RESOURCE_EXHAUSTED") << r.ec.message() << ": " << r.reply;
  EXPECT_EQ(r.reply, "busy: 100% \u2014 later");
}

// A grpc-go server (tests/protocols/grpcgo_peer, built by scripts/setup): our unary, stream and
// batch clients, many calls in flight on one connection, each completes once with its greeting.
TEST(grpc_interop, our_clients_call_a_grpc_go_server) {
  WIREBENCH_REQUIRE_GO_TOOL(grpcgo_peer, "grpcgo_peer", WIREBENCH_GRPCGO_PEER_VERSION);
  const int port = test::free_loopback_port();
  test::child_process peer({grpcgo_peer, "-port", std::to_string(port)});
  ASSERT_TRUE(test::wait_for_listener(port));
  for (const char* client : {"grpc", "grpc-stream", "grpc-batch"}) {
    SCOPED_TRACE(client);
    auto c = protocol_registry::builtin().find(client)->make_client(
        to(endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port))));
    test::expect_each_call_completes_once(*c, 2, 200);
  }
}

// Server reflection (v1 and v1alpha) read by three clients we did not write: grpcurl (v1: list,
// describe, then a call with no .proto), grpcio (v1alpha: list) and grpc++'s reflection client
// (the grpcpp backend's --reflect user call, v1alpha).
TEST(grpc_interop, grpcurl_grpcio_and_grpcpp_read_our_servers_reflection) {
  auto server = ours().make_server(loopback());
  const std::string address = "127.0.0.1:" + port_of(*server);
  {
    client_config cc = to(server->local_endpoint());
    cc.calls = {user_call{grpc_call{.method = "wirebench.echo.Echo/Greet", .proto_file = "", .reflect = true,
                                  .request_json = R"({"name": "mirror"})"}}};
    auto c = grpcpp_entry().make_client(cc);
    const auto r = test::greet_sync(*c, "");
    EXPECT_FALSE(r.ec) << r.ec.message() << ": " << r.reply;
    EXPECT_EQ(r.reply, R"({"greeting":"hello, mirror"})");
  }
  {
    WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
    int rc = 0;
    const std::string out = test::run_shell(std::string(test::debian_python3) + " " + WIREBENCH_GRPCIO_PEER +
                                                " reflect " + port_of(*server) + " 2>&1",
                                            &rc);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_EQ(out, "grpc.reflection.v1.ServerReflection\ngrpc.reflection.v1alpha.ServerReflection\n"
                   "wirebench.echo.Echo\n");
  }
  {  // our own client's --reflect, over TLS, against grpc++'s reflection
    test::cert_files files;
    auto sealed = grpcpp_entry().make_server(tls_loopback(files));
    client_config cc = to(sealed->local_endpoint());
    cc.tls.enabled = true;
    cc.tls.ca_file = files.cert();
    cc.calls = {user_call{grpc_call{.method = "wirebench.echo.Echo/Get", .proto_file = "", .reflect = true,
                                  .request_json = R"({"text": "sealed"})"}}};
    auto c = ours().make_client(cc);
    const auto r = test::greet_sync(*c, "");
    EXPECT_FALSE(r.ec) << r.ec.message() << ": " << r.reply;
    EXPECT_EQ(r.reply, R"({"text":"sealed"})");
  }
  WIREBENCH_REQUIRE_GO_TOOL(grpcurl, "grpcurl", "v1.9.3");
  int rc = 0;
  std::string out = test::run_shell(grpcurl + " -plaintext " + address + " list 2>&1", &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_EQ(out, "grpc.reflection.v1.ServerReflection\ngrpc.reflection.v1alpha.ServerReflection\n"
                 "wirebench.echo.Echo\n");
  out = test::run_shell(grpcurl + " -plaintext " + address + " describe wirebench.echo.Echo 2>&1", &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("rpc GreetStream ( stream .wirebench.echo.GreetRequest ) returns ( stream "
                     ".wirebench.echo.GreetReply );"),
            std::string::npos)
      << out;
  out = test::run_shell(grpcurl + " -plaintext " + address +
                            " describe grpc.reflection.v1alpha.ServerReflection 2>&1",
                        &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("rpc ServerReflectionInfo"), std::string::npos) << out;
  out = test::run_shell(grpcurl + " -plaintext -d '{\"name\": \"no proto\"}' " + address +
                            " wirebench.echo.Echo/Greet 2>&1",
                        &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("\"greeting\": \"hello, no proto\""), std::string::npos) << out;
  out = test::run_shell(grpcurl + " -plaintext " + address + " describe no.Such 2>&1", &rc);
  EXPECT_NE(rc, 0) << out;
  EXPECT_NE(out.find("Symbol not found"), std::string::npos) << out;
}

TEST(grpc_interop, grpcurl_calls_our_server_from_the_proto_in_clear_and_over_tls) {
  WIREBENCH_REQUIRE_GO_TOOL(grpcurl, "grpcurl", "v1.9.3");
  const std::string proto = std::string(" -import-path ") + WIREBENCH_PROTO_DIR + " -proto echo.proto";
  auto plain = ours().make_server(loopback());
  int rc = 0;
  auto call = [&](const std::string& json, const std::string& method) {
    return test::run_shell(grpcurl + " -plaintext" + proto + " -d '" + json + "' 127.0.0.1:" +
                               port_of(*plain) + " wirebench.echo.Echo/" + method + " 2>&1",
                           &rc);
  };
  std::string out = call(R"({"name": "gc"})", "Greet");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("\"greeting\": \"hello, gc\""), std::string::npos) << out;
  // The bidirectional methods: Update echoes each message; GreetStream answers each by its id.
  out = call(R"({"text": "a"} {"text": "bc"})", "Update");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("\"text\": \"a\"\n}\n{\n  \"text\": \"bc\""), std::string::npos) << out;
  out = call(R"({"id": 7, "name": "x"} {"id": 9, "name": "y"})", "GreetStream");
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("\"id\": \"7\",\n  \"greeting\": \"hello, x\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"id\": \"9\",\n  \"greeting\": \"hello, y\""), std::string::npos) << out;

  test::cert_files files;
  auto tls = ours().make_server(tls_loopback(files));
  out = test::run_shell(grpcurl + " -cacert " + files.cert() + proto +
                            " -d '{\"name\": \"sealed\"}' 127.0.0.1:" + port_of(*tls) +
                            " wirebench.echo.Echo/Greet 2>&1",
                        &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("\"greeting\": \"hello, sealed\""), std::string::npos) << out;
}

// ghz, the gRPC load tool users know: every call of a bounded run answered OK.
TEST(grpc_interop, ghz_loads_our_server_and_every_call_is_ok) {
  WIREBENCH_REQUIRE_GO_TOOL(ghz, "ghz", "v0.93.0");
  auto server = ours().make_server(loopback());
  int rc = 0;
  const std::string out = test::run_shell(
      ghz + " --insecure --import-paths " + WIREBENCH_PROTO_DIR +
          " --proto echo.proto --call wirebench.echo.Echo/Greet -d '{\"name\": \"ghz\"}' -n 400 "
          "-c 16 --connections 1 -t 10s -O json 127.0.0.1:" + port_of(*server) + " 2>&1",
      &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("\"count\":400"), std::string::npos) << out;
  EXPECT_NE(out.find("\"statusCodeDistribution\":{\"OK\":400}"), std::string::npos) << out;
}

TEST(grpc_interop, h2load_drives_our_server_with_grpc_framed_posts) {
  WIREBENCH_REQUIRE_PEER("h2load", "nghttp2-client");
  auto server = ours().make_server(loopback());
  // GreetRequest{name: "h2load"} behind its 5-byte prefix.
  test::expect_h2load_posts_all_2xx("grpc_greet.bin", std::string_view("\0\0\0\0\x08\x12\x06h2load", 13),
                                    "-H 'content-type: application/grpc' -H 'te: trailers'",
                                    "http://127.0.0.1:" + port_of(*server) + "/wirebench.echo.Echo/Greet");
}

// grpc-timeout on a call whose work outlasts it (5 s of service time, off the connection's thread):
// the server answers DEADLINE_EXCEEDED at the deadline, not when the work is done. curl enforces
// no deadline of its own, so the answer it gets within its 3 s can only be the server's.
TEST(grpc_interop, a_call_past_its_grpc_timeout_is_answered_deadline_exceeded_at_the_deadline) {
  WIREBENCH_REQUIRE_PEER("curl", "curl");
  server_config sc = loopback();
  sc.service_time = service_time_model::parse("fixed:5s");
  auto server = ours().make_server(sc);
  const std::string body = std::string("\0\0\0\0\x05\x12\x03slo", 10);  // GreetRequest{name: "slo"}
  const std::string file = ::testing::TempDir() + "/grpc_slow.bin";
  std::ofstream(file, std::ios::binary) << body;
  int rc = 0;
  const std::string out = test::run_shell(
      "curl -sS --max-time 3 --http2-prior-knowledge -D - -o /dev/null --data-binary @" + file +
          " -H 'content-type: application/grpc' -H 'te: trailers' -H 'grpc-timeout: 200m' "
          "http://127.0.0.1:" + port_of(*server) + "/wirebench.echo.Echo/Greet 2>&1",
      &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("grpc-status: 4"), std::string::npos) << out;
  EXPECT_NE(out.find("grpc-message: deadline exceeded"), std::string::npos) << out;
}

}  // namespace
}  // namespace wirebench
