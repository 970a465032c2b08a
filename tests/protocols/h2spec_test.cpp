// h2spec (a Go tool scripts/setup builds), HTTP/2's conformance suite, against our HTTP/2
// servers in cleartext: the REST greet routes and gRPC, one core under both. Every case passes.
#include <string>

#include <gtest/gtest.h>

#include "support/child_process.hpp"
#include "support/require_peer.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

class h2spec : public ::testing::TestWithParam<const char*> {};

TEST_P(h2spec, every_case_passes) {
  WIREBENCH_REQUIRE_GO_TOOL(tool, "h2spec", "v2.2.1+incompatible");
  server_config sc;
  sc.listen = endpoint::parse_or_throw("tcp://127.0.0.1:0");
  auto server = protocol_registry::builtin().find(GetParam())->make_server(sc);
  int rc = 0;
  // -o: each case's timeout in seconds (the default, 2, is tight on a loaded 2-core machine).
  const std::string out = test::run_shell(
      tool + " -h 127.0.0.1 -p " + std::to_string(server->local_endpoint().port) + " -o 5 2>&1", &rc);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("145 tests, 145 passed, 0 skipped, 0 failed"), std::string::npos) << out;
}

INSTANTIATE_TEST_SUITE_P(servers, h2spec, ::testing::Values("http2", "grpc"));

}  // namespace
}  // namespace wirebench
