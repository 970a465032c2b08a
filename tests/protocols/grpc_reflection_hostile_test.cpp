// Both reflection clients (ours: grpc, connect, grpc-web; grpc++'s: grpcpp) against a server
// whose reflection lies (hostile_reflection_peer.py, on python3-grpcio): 10 000 files in one
// answer, a chain of imports 101 deep (protobuf builds imports by recursion: such chains once
// ended the client on its stack), an import more in every answer for ever, and an error message
// carrying a terminal's escape sequences. Each start-up is refused with one line, at once; the
// server's text is shown escaped. And a local --proto whose imports chain as deep.
#include <filesystem>
#include <fstream>
#include <csignal>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <unistd.h>

#include "support/child_process.hpp"
#include "support/protocol_cases.hpp"
#include "support/require_peer.hpp"
#include "support/user_calls.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

// What making `protocol`'s client for hostile.S/Call by reflection against `port` is refused with.
std::string refusal(const char* protocol, int port) {
  client_config cc;
  cc.connect = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));
  cc.reply_timeout = 5s;
  grpc_call call;
  call.method = "hostile.S/Call";
  call.request_json = "{}";
  call.reflect = true;
  cc.calls = {user_call{call}};
  try {
    test::builtin_protocol(protocol).make_client(cc);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(not refused)";
}

class grpc_reflection_hostile : public ::testing::TestWithParam<const char*> {};

TEST_P(grpc_reflection_hostile, every_lie_is_refused_at_start_up) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  const struct {
    std::vector<std::string> mode;
    std::string refused;
  } cases[] = {
      {{"chain", "10000"}, "reflect: the server named more than 1000 files"},
      {{"chain", "100"}, "reflect: the server's files import 101 deep, more than 64"},
      {{"endless"}, "reflect: the server named more than 1000 files"},
      {{"error"}, "reflect: hostile.S: \\x1b[2J\\x1b[31mowned\\x1b[0m\\x0asecond line"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.mode.front());
    const int port = test::free_loopback_port();
    std::vector<std::string> argv = {test::debian_python3, WIREBENCH_HOSTILE_REFLECTION_PEER, std::to_string(port)};
    argv.insert(argv.end(), c.mode.begin(), c.mode.end());
    test::child_process server(argv);
    ASSERT_TRUE(test::wait_for_listener(port));
    EXPECT_EQ(refusal(GetParam(), port), c.refused);
  }
}

INSTANTIATE_TEST_SUITE_P(clients, grpc_reflection_hostile, ::testing::Values("grpc", "grpcpp"),
                         [](const auto& info) { return std::string(info.param); });

// A server that takes the reflection request and never answers: SIGTERM during that start-up
// ends the run at once (exit 143, "interrupted"), not after the reflection's own deadline.
TEST_P(grpc_reflection_hostile, sigterm_while_a_server_stalls_reflection_ends_the_run_at_once) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  const std::string protocol = GetParam();
  const int port = test::free_loopback_port();
  test::child_process server({test::debian_python3, WIREBENCH_HOSTILE_REFLECTION_PEER, std::to_string(port), "stall"});
  ASSERT_TRUE(test::wait_for_listener(port));
  const std::string out = ::testing::TempDir() + "/stall-" + protocol + "-" + std::to_string(::getpid()) + ".out";
  test::child_process run({WIREBENCH_CLI, "run", "-p", protocol, "--connect", "tcp://127.0.0.1:" + std::to_string(port),
                           "--reflect", "--call", "hostile.S/Call", "-d", "{}", "-D", "0.2", "-q"},
                          out, out);
  std::this_thread::sleep_for(1s);  // it has connected and asked (the server holds the answer)
  run.signal(SIGTERM);
  // Its own reply timeout is 10 s: ended by the signal, it exits well before.
  EXPECT_EQ(run.wait_for_exit(4s), 128 + SIGTERM);
  std::ifstream in(out);
  const std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(said.find("interrupted by SIGTERM while " + protocol + " closed workers=1 repeat 1's client started"),
            std::string::npos)
      << said;
}

// The same chain on disk: refused before protobuf's importer follows it.
TEST(grpc_reflection_hostile_local, a_proto_whose_imports_chain_deeper_than_64_is_refused) {
  const std::string dir = ::testing::TempDir() + "/chain-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  for (int i = 0; i <= 100; ++i) {
    std::ofstream f(dir + "/f" + std::to_string(i) + ".proto");
    f << "syntax = \"proto3\";\npackage chain;\n";
    if (i < 100) f << "import \"f" << i + 1 << ".proto\";\n";
    if (i == 0) f << "message M {}\nservice S { rpc Call(M) returns (M); }\n";
  }
  client_config cc;
  cc.connect = endpoint::parse_or_throw("tcp://127.0.0.1:1");
  cc.calls = {user_call{grpc_call{.method = "chain.S/Call", .proto_file = dir + "/f0.proto", .request_json = "{}"}}};
  for (const char* protocol : {"grpc", "grpcpp"}) {
    SCOPED_TRACE(protocol);
    try {
      test::builtin_protocol(protocol).make_client(cc);
      ADD_FAILURE() << "not refused";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "proto: " + dir + "/f0.proto: its imports chain 101 files deep, more than 64");
    }
  }
}

}  // namespace
}  // namespace wirebench
