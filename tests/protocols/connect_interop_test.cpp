// Connect and gRPC-Web against software we did not write, both ways: connect-go (its client of
// every shape and codec, in Connect, gRPC and gRPC-Web, against our server; our `connect` and
// `grpc-web` clients against its server, errors counted by code), curl (a unary call is plain HTTP: its exact JSON, an error's
// status and JSON) and h2load (Connect unary posts at load, every one 200). Peers that are missing
// skip, naming what installs them, and fail under CI=true.
#include <fstream>
#include <thread>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "support/cert_files.hpp"
#include "support/concurrent_calls.hpp"
#include "support/child_process.hpp"
#include "support/h2load_posts.hpp"
#include "support/loopback_listen.hpp"
#include "support/protocol_cases.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "support/user_calls.hpp"
#include "test_paths.h"
#include "wirebench/core/error.hpp"
#include "wirebench/core/error_condition.hpp"
#include "proto/echo.pb.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

// Our server (the grpc entry's, which answers Connect) on a kernel-picked loopback port.
std::unique_ptr<protocol_server> our_server() {
  server_config sc;
  sc.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  return test::builtin_protocol("connect").make_server(sc);
}

std::string base_url(const protocol_server& s) {
  return "http://127.0.0.1:" + std::to_string(s.local_endpoint().port);
}

// connectgo_peer's `call` against `url` with these arguments: its output (every reply's line).
std::string connect_go_call(const std::string& peer, const std::string& url, const std::string& args) {
  int rc = 0;
  const std::string out = test::run_shell(peer + " call -url " + url + " " + args + " 2>&1", &rc);
  EXPECT_EQ(rc, 0) << out;
  return out;
}

TEST(connect_interop, connect_go_calls_our_server_in_every_shape_codec_and_protocol) {
  WIREBENCH_REQUIRE_GO_TOOL(peer, "connectgo_peer", WIREBENCH_CONNECTGO_PEER_VERSION);
  auto server = our_server();
  const std::string url = base_url(*server);
  for (const char* protocol : {"connect", "grpc", "grpcweb"}) {
    for (const char* codec : {"proto", "json"}) {
      SCOPED_TRACE(std::string(protocol) + " " + codec);
      const std::string with = std::string("-protocol ") + protocol + " -codec " + codec;
      EXPECT_EQ(connect_go_call(peer, url, with + " -text ann -count 2"), "reply: hello, ann\nreply: hello, ann\n");
      EXPECT_EQ(connect_go_call(peer, url, with + " -method get -text got"), "reply: got\n");
      EXPECT_EQ(connect_go_call(peer, url, with + " -method expand -text 'a bb c'"), "reply: a\nreply: bb\nreply: c\n");
      EXPECT_EQ(connect_go_call(peer, url, with + " -method collect -count 3 -text x"), "reply: xxx\n");
      EXPECT_EQ(connect_go_call(peer, url, with + " -method update -count 2 -text u"), "reply: u\nreply: u\n");
      EXPECT_EQ(connect_go_call(peer, url, with + " -gzip -text zipped"), "reply: hello, zipped\n");
    }
  }
  // Errors as connect-go reads them: the code and message our server sent.
  for (const char* protocol : {"connect", "grpc", "grpcweb"})
    EXPECT_EQ(connect_go_call(peer, url + "/nowhere", std::string("-text x -protocol ") + protocol),
              "error: unimplemented: unknown service\n")
        << protocol;
}

// The same port over HTTP/1.1 (the first bytes are no HTTP/2 preface): connect-go's client in
// Connect and gRPC-Web, every shape HTTP/1.1 carries; a bidirectional stream and gRPC refused
// (505), as connect-go's own server refuses them.
TEST(connect_interop, connect_go_calls_our_server_over_http_1_1_on_the_same_port) {
  WIREBENCH_REQUIRE_GO_TOOL(peer, "connectgo_peer", WIREBENCH_CONNECTGO_PEER_VERSION);
  auto server = our_server();
  const std::string url = base_url(*server);
  for (const char* protocol : {"connect", "grpcweb"}) {
    SCOPED_TRACE(protocol);
    const std::string with = std::string("-http1 -protocol ") + protocol;
    EXPECT_EQ(connect_go_call(peer, url, with + " -text ann -count 2"), "reply: hello, ann\nreply: hello, ann\n");
    EXPECT_EQ(connect_go_call(peer, url, with + " -codec json -method get -text got"), "reply: got\n");
    EXPECT_EQ(connect_go_call(peer, url, with + " -method expand -text 'a bb'"), "reply: a\nreply: bb\n");
    EXPECT_EQ(connect_go_call(peer, url, with + " -gzip -method collect -count 3 -text x"), "reply: xxx\n");
    EXPECT_EQ(connect_go_call(peer, url, with + " -method update -count 2 -text u"),
              "error: unknown: HTTP status 505 HTTP Version Not Supported\n");
  }
  EXPECT_EQ(connect_go_call(peer, url, "-http1 -protocol grpc -text g"),
            "error: unknown: HTTP status 505 HTTP Version Not Supported\n");
  // And h2c on the same port, still.
  EXPECT_EQ(connect_go_call(peer, url, "-protocol grpc -text g"), "reply: hello, g\n");
}

// Article 003's set-up: its Echo API (echo.v1.Echo) on Linux's abstract socket, which the article
// could not reach from connect-go's clients: connect-go's client, in each protocol, against our
// server on unix:@NAME; our clients, from the article's .proto, against connect-go's server there.
TEST(connect_interop, article_003s_echo_on_an_abstract_socket_both_ways) {
  WIREBENCH_REQUIRE_GO_TOOL(peer, "connectgo_peer", WIREBENCH_CONNECTGO_PEER_VERSION);
  const std::string ours_at = "@wirebench-echo-ours-" + std::to_string(::getpid());
  server_config sc;
  sc.listen = endpoint::parse_or_throw("unix:" + ours_at);
  auto server = test::builtin_protocol("grpc").make_server(sc);
  for (const char* protocol : {"connect", "grpc", "grpcweb"}) {
    SCOPED_TRACE(protocol);
    const std::string with = "-socket " + ours_at + " -service echo.v1.Echo -protocol " + protocol;
    EXPECT_EQ(connect_go_call(peer, "http://echo", with + " -method get -text hello"), "reply: hello\n");
    EXPECT_EQ(connect_go_call(peer, "http://echo", with + " -method expand -text '1 2'"), "reply: 1\nreply: 2\n");
    EXPECT_EQ(connect_go_call(peer, "http://echo", with + " -method collect -count 2 -text c"), "reply: cc\n");
    EXPECT_EQ(connect_go_call(peer, "http://echo", with + " -method update -count 2 -text u"), "reply: u\nreply: u\n");
  }
  const std::string theirs_at = "@wirebench-echo-theirs-" + std::to_string(::getpid());
  test::child_process theirs({peer, "serve", "-socket", theirs_at});
  client_config cc;
  cc.connect = endpoint::parse_or_throw("unix:" + theirs_at);
  cc.reply_timeout = 10s;
  cc.calls = {user_call{grpc_call{.method = "echo.v1.Echo/Get",
                                  .proto_file = std::string(WIREBENCH_PROTO_DIR) + "/echo_v1.proto",
                                  .request_json = R"({"text": "from ours"})"}}};
  for (const char* client : {"grpc", "connect", "grpc-web", "connect-h1", "grpc-web-h1", "connect-json",
                             "connect-json-h1"}) {
    SCOPED_TRACE(client);
    auto c = test::builtin_protocol(client).make_client(cc);
    test::call_result r;
    for (int i = 0; i < 50; ++i) {  // until its server listens (no port to wait on)
      r = test::greet_sync(*c, "");
      if (r.ec != errc::connect_failed) break;
      std::this_thread::sleep_for(50ms);
    }
    EXPECT_FALSE(r.ec) << error_name(r.ec) << ": " << r.reply;
    EXPECT_EQ(r.reply, R"({"text":"from ours"})");
  }
}

// Our clients against connect-go's server, over HTTP/2 and HTTP/1.1: each greeting, and its
// errors counted by their code: Connect's names (its unary errors carry the JSON), gRPC's for
// gRPC-Web (the trailers frame); then the id-multiplexed stream clients.
TEST(connect_interop, our_connect_and_grpc_web_clients_call_a_connect_go_server) {
  WIREBENCH_REQUIRE_GO_TOOL(peer, "connectgo_peer", WIREBENCH_CONNECTGO_PEER_VERSION);
  const int port = test::free_loopback_port();
  test::child_process server({peer, "serve", "-port", std::to_string(port)});
  ASSERT_TRUE(test::wait_for_listener(port));
  client_config cc;
  cc.connect = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));
  cc.reply_timeout = 10s;
  const std::vector<std::pair<std::string, std::vector<std::string>>> clients = {
      {"connect", {"connect_resource_exhausted", "connect_unavailable", "connect_permission_denied"}},
      {"grpc-web", {"status_RESOURCE_EXHAUSTED", "status_UNAVAILABLE", "status_PERMISSION_DENIED"}},
      {"connect-h1", {"connect_resource_exhausted", "connect_unavailable", "connect_permission_denied"}},
      {"grpc-web-h1", {"status_RESOURCE_EXHAUSTED", "status_UNAVAILABLE", "status_PERMISSION_DENIED"}},
      // In JSON, as connect-go's server takes it besides protobuf (its codecs by content type).
      {"connect-json", {"connect_resource_exhausted", "connect_unavailable", "connect_permission_denied"}},
      {"connect-json-h1", {"connect_resource_exhausted", "connect_unavailable", "connect_permission_denied"}}};
  for (const auto& [protocol, counted] : clients) {
    SCOPED_TRACE(protocol);
    auto client = test::builtin_protocol(protocol).make_client(cc);
    for (const char* name : {"ann", "a longer name, with spaces", "\xc3\xbc"}) {
      const auto r = test::greet_sync(*client, name);
      EXPECT_FALSE(r.ec) << r.ec.message();
      EXPECT_EQ(r.reply, "hello, " + std::string(name));
    }
    const char* codes[] = {"resource_exhausted", "unavailable", "permission_denied"};
    for (std::size_t i = 0; i < 3; ++i) {
      const auto r = test::greet_sync(*client, std::string("fail:") + codes[i]);
      EXPECT_EQ(error_name(r.ec), counted[i]) << r.ec.message();
      EXPECT_EQ(r.reply, "failed as asked");
    }
  }
  // Every call of a connection a message on one Connect bidi stream (connect-stream), or gRPC's
  // (grpc-stream), on connect-go's GreetStream: each call completes once, with its own greeting,
  // whatever order the replies come in.
  for (const char* protocol : {"connect-stream", "grpc-stream"}) {
    SCOPED_TRACE(protocol);
    auto client = test::builtin_protocol(protocol).make_client(cc);
    test::expect_each_call_completes_once(*client, 4, 250);
  }
}

TEST(connect_interop, curl_calls_our_server_in_json_and_reads_its_errors) {
  WIREBENCH_REQUIRE_PEER("curl", "curl");
  auto server = our_server();
  const std::string url = base_url(*server) + "/wirebench.echo.Echo/";
  const std::string curl = "curl -s --http2-prior-knowledge -H 'content-type: application/json' "
                           "-H 'connect-protocol-version: 1' -w ' %{http_code} %{content_type}' ";
  // HTTP/1.1 on the same port (curl's default for http:), then h2c.
  int rc = 0;
  std::string out = test::run_shell(
      "curl -s -H 'content-type: application/json' -w ' %{http_version} %{http_code}' -d '{\"name\": \"h1\"}' " + url +
          "Greet",
      &rc);
  EXPECT_EQ(out, R"({"greeting":"hello, h1"} 1.1 200)");
  out = test::run_shell(curl + "-d '{\"name\": \"curl\"}' " + url + "Greet", &rc);
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(out, R"({"greeting":"hello, curl"} 200 application/json)");
  out = test::run_shell(curl + "-d '{\"text\": \"curl\"}' " + url + "Nope", &rc);
  EXPECT_EQ(out, R"({"code":"unimplemented","message":"unknown method Nope"} 501 application/json)");
  out = test::run_shell(curl + "-H 'connect-timeout-ms: 12345678901' -d '{}' " + url + "Greet", &rc);
  EXPECT_EQ(out, R"({"code":"invalid_argument","message":"connect-timeout-ms must be 1 to 10 digits"} 400 application/json)");
}

// Connect's GET: a side-effect-free unary method (Greet, Get) called with its message in the
// query, as curl fetches any URL, over HTTP/1.1 and h2c; JSON percent-encoded, or proto in
// URL-safe base64; a method with side effects or a stream 405, an unknown encoding 415, a
// message that is not base64 400, each with the Connect error's JSON.
TEST(connect_interop, curl_gets_a_side_effect_free_method_with_its_message_in_the_query) {
  WIREBENCH_REQUIRE_PEER("curl", "curl");
  auto server = our_server();
  const std::string url = base_url(*server) + "/wirebench.echo.Echo/";
  for (const char* version : {"", "--http2-prior-knowledge "}) {
    SCOPED_TRACE(version);
    const std::string curl = std::string("curl -s ") + version + "-w ' %{http_code} %{content_type}' ";
    int rc = -1;
    // {"text":"hi there"}, percent-encoded (a form's '+' is a space).
    EXPECT_EQ(test::run_shell(curl + "'" + url + "Get?connect=v1&encoding=json&message=%7B%22text%22%3A%22hi+there%22%7D'", &rc),
              R"({"text":"hi there"} 200 application/json)");
    EXPECT_EQ(rc, 0);
    // EchoRequest{text: "hi"} is 0a 02 68 69: "CgJoaQ" in URL-safe base64, unpadded.
    EXPECT_EQ(test::run_shell(curl + "-o /dev/null '" + url + "Get?encoding=proto&base64=1&message=CgJoaQ'", &rc),
              " 200 application/proto");
    EXPECT_EQ(test::run_shell("curl -s " + std::string(version) + "'" + url +
                                  "Get?encoding=proto&base64=1&message=CgJoaQ' | od -An -tx1",
                              &rc),
              " 0a 02 68 69\n");
    // GreetRequest{name: "get"}: 12 03 67 65 74, "EgNnZXQ=" padded.
    EXPECT_EQ(test::run_shell(curl + "'" + url + "Greet?encoding=json&message=%7B%22name%22%3A%22get%22%7D'", &rc),
              R"({"greeting":"hello, get"} 200 application/json)");
    EXPECT_EQ(test::run_shell(curl + "-o /dev/null '" + url + "Greet?encoding=proto&base64=1&message=EgNnZXQ%3D'", &rc),
              " 200 application/proto");
    EXPECT_EQ(test::run_shell(curl + "'" + url + "Expand?encoding=json&message=%7B%7D'", &rc),
              R"({"code":"unimplemented","message":"a streaming method is not called with GET"} 405 application/json)");
    EXPECT_EQ(test::run_shell(curl + "'" + base_url(*server) + "/echo.v1.Echo/Update?encoding=json&message=%7B%7D'", &rc),
              R"({"code":"unimplemented","message":"a streaming method is not called with GET"} 405 application/json)");
    EXPECT_EQ(test::run_shell(curl + "'" + url + "Get?encoding=xml&message=x'", &rc),
              R"({"code":"unimplemented","message":"encoding xml is not supported; supported: proto, json"} 415 application/json)");
    EXPECT_EQ(test::run_shell(curl + "'" + url + "Get?encoding=proto&base64=1&message=C*'", &rc),
              R"({"code":"invalid_argument","message":"the message is not base64"} 400 application/json)");
    EXPECT_EQ(test::run_shell(curl + "'" + url + "Get?encoding=json&message=%7B&connect=v2'", &rc),
              R"({"code":"invalid_argument","message":"connect must be v1"} 400 application/json)");
  }
}

// connect-go's client calls the side-effect-free methods with GET when told they are (its
// WithHTTPGet and WithIdempotency options), over h2c and HTTP/1.1.
TEST(connect_interop, connect_go_gets_greet_and_get_from_our_server) {
  WIREBENCH_REQUIRE_GO_TOOL(peer, "connectgo_peer", WIREBENCH_CONNECTGO_PEER_VERSION);
  auto server = our_server();
  const std::string url = base_url(*server);
  for (const char* http : {"", "-http1 "}) {
    for (const char* codec : {"proto", "json"}) {
      SCOPED_TRACE(std::string(http) + codec);
      const std::string with = std::string("-get ") + http + "-codec " + codec;
      EXPECT_EQ(connect_go_call(peer, url, with + " -text 'a b&c=d'"), "reply: hello, a b&c=d\n");
      EXPECT_EQ(connect_go_call(peer, url, with + " -method get -text got"), "reply: got\n");
    }
  }
}

// Over TLS the one port offers h2, then http/1.1, in ALPN: curl gets Connect over each, as it
// asks, and over h2 when it offers both (ours is preferred in order).
TEST(connect_interop, curl_over_tls_gets_http_1_1_or_h2_as_alpn_chooses) {
  WIREBENCH_REQUIRE_PEER("curl", "curl");
  test::cert_files files;
  server_config sc;
  sc.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  sc.tls.enabled = true;
  sc.tls.certificate_file = files.cert();
  sc.tls.private_key_file = files.key();
  auto server = test::builtin_protocol("connect").make_server(sc);
  const std::string url =
      "https://127.0.0.1:" + std::to_string(server->local_endpoint().port) + "/wirebench.echo.Echo/Greet";
  const std::string curl = "curl -s --cacert " + files.cert() +
                           " -H 'content-type: application/json' -w ' %{http_version} %{http_code}' -d '{\"name\": \"tls\"}' ";
  int rc = -1;
  EXPECT_EQ(test::run_shell(curl + "--http1.1 " + url, &rc), R"({"greeting":"hello, tls"} 1.1 200)");
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(test::run_shell(curl + "--http2 " + url, &rc), R"({"greeting":"hello, tls"} 2 200)");
  EXPECT_EQ(rc, 0);
}

TEST(connect_interop, h2load_posts_connect_unary_calls_and_each_is_200) {
  WIREBENCH_REQUIRE_PEER("h2load", "nghttp2-client");
  auto server = our_server();
  echo::GreetRequest request;
  request.set_name("h2load");
  test::expect_h2load_posts_all_2xx("connect_greet.bin", request.SerializeAsString(),
                                    "-H 'content-type: application/proto' -H 'connect-protocol-version: 1'",
                                    base_url(*server) + "/wirebench.echo.Echo/Greet");
}

}  // namespace
}  // namespace wirebench
