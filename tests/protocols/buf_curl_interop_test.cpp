// Our server against `buf curl` (npm @bufbuild/buf 1.75.0, which scripts/setup installs into the
// tools cache): Buf's command-line client of Connect, gRPC and gRPC-Web, a client we did not write
// (connect-go's client underneath, driven by a schema or by our server's reflection). Every shape
// of article 003's Echo API in each protocol, over h2c and, where HTTP/1.1 carries it, HTTP/1.1 on
// the same port; on an abstract socket; by reflection; and an unknown service's error as buf reads
// it. Skips where buf is missing, failing under CI=true.
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "support/child_process.hpp"
#include "support/protocol_cases.hpp"
#include "support/require_peer.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

// buf curl's output (stdout and stderr), its JSON without the indentation, and its exit status.
std::string buf_curl(const std::string& buf, const std::string& args, int& rc) {
  std::string out = test::run_shell(buf + " curl " + args + " 2>&1", &rc);
  std::erase_if(out, [](char c) { return c == ' ' || c == '\n'; });
  return out;
}

std::unique_ptr<protocol_server> serving_at(const std::string& where) {
  server_config sc;
  sc.listen = endpoint::parse_or_throw(where);
  return test::builtin_protocol("grpc").make_server(sc);
}

TEST(buf_curl_interop, every_echo_shape_in_every_protocol_and_http_version) {
  WIREBENCH_REQUIRE_NPM_TOOL(buf, "buf", "1.75.0");
  auto server = serving_at("tcp://127.0.0.1:0");
  const std::string url = "http://127.0.0.1:" + std::to_string(server->local_endpoint().port) + "/echo.v1.Echo/";
  const std::string schema = std::string(" --schema ") + WIREBENCH_PROTO_DIR + "/echo_v1.proto ";
  for (const char* protocol : {"connect", "grpc", "grpcweb"}) {
    for (const bool h2 : {true, false}) {
      if (!h2 && std::string_view(protocol) == "grpc") continue;  // gRPC needs HTTP/2
      SCOPED_TRACE(std::string(protocol) + (h2 ? " h2c" : " HTTP/1.1"));
      const std::string with = std::string("--protocol ") + protocol + (h2 ? " --http2-prior-knowledge" : "") + schema;
      int rc = -1;
      EXPECT_EQ(buf_curl(buf, with + "-d '{\"text\":\"hello\"}' " + url + "Get", rc), R"({"text":"hello"})");
      EXPECT_EQ(rc, 0);
      EXPECT_EQ(buf_curl(buf, with + "-d '{\"text\":\"1 2 3\"}' " + url + "Expand", rc),
                R"({"text":"1"}{"text":"2"}{"text":"3"})");
      EXPECT_EQ(rc, 0);
      EXPECT_EQ(buf_curl(buf, with + "-d '{\"text\":\"a\"}{\"text\":\"b\"}' " + url + "Collect", rc),
                R"({"text":"ab"})");
      EXPECT_EQ(rc, 0);
      if (h2) {  // a bidirectional stream is HTTP/2's alone
        EXPECT_EQ(buf_curl(buf, with + "-d '{\"text\":\"u0\"}{\"text\":\"u1\"}' " + url + "Update", rc),
                  R"({"text":"u0"}{"text":"u1"})");
        EXPECT_EQ(rc, 0);
      }
    }
  }
}

TEST(buf_curl_interop, by_reflection_on_an_abstract_socket_and_an_unknown_service) {
  WIREBENCH_REQUIRE_NPM_TOOL(buf, "buf", "1.75.0");
  const std::string name = "wirebench-buf-" + std::to_string(::getpid());
  auto server = serving_at("unix:@" + name);
  const std::string socket = " --http2-prior-knowledge --unix-socket @" + name + " ";
  for (const char* protocol : {"connect", "grpc", "grpcweb"}) {
    SCOPED_TRACE(protocol);
    const std::string with = std::string("--protocol ") + protocol + socket;
    int rc = -1;
    // No schema: buf asks our server's reflection what Greet is (over gRPC, as buf does).
    EXPECT_EQ(buf_curl(buf, with + "-d '{\"name\":\"buf\"}' http://echo/wirebench.echo.Echo/Greet", rc),
              R"({"greeting":"hello,buf"})");
    EXPECT_EQ(rc, 0);
    // A service we do not serve, from a schema that declares it: buf reads our error's code and
    // message, and exits 80 + the code (unimplemented, 12).
    const std::string other = ::testing::TempDir() + "/buf_other_" + protocol + ".proto";
    std::ofstream(other) << "syntax = \"proto3\";\npackage other;\nmessage M { string s = 1; }\n"
                            "service S { rpc Call(M) returns (M); }\n";
    EXPECT_EQ(buf_curl(buf, with + "--schema " + other + " -d '{}' http://echo/other.S/Call", rc),
              R"({"code":"unimplemented","message":"unknownservice"})");
    EXPECT_EQ(rc, 96);
  }
}

}  // namespace
}  // namespace wirebench
