// gRPC user calls (grpc_call): any method from its .proto, unary or streaming, through dynamic
// messages, on our client (`grpc`) and grpc++'s generic stub (`grpcpp`), each against both
// servers; what is refused at start-up, with what message; and the other side not ours: a grpcio
// server written from the same echo.proto, and grpcio reading the grpcpp server's reflection
// (python3-grpcio, which scripts/setup installs).
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "support/protocol_cases.hpp"

#include "support/user_calls.hpp"
#include "support/cert_files.hpp"
#include "support/child_process.hpp"
#include "support/concurrent_calls.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

const protocol& grpcpp() { return test::builtin_protocol("grpcpp"); }

client_config calling(const endpoint& where, const std::string& method, const std::string& json,
                      const std::string& proto = WIREBENCH_ECHO_PROTO) {
  client_config cc;
  cc.connect = where;
  cc.reply_timeout = 10s;
  cc.calls = {user_call{grpc_call{.method = method, .proto_file = proto, .request_json = json}}};
  return cc;
}

// The same call, its method found by the server's reflection instead of a .proto.
client_config reflecting(client_config cc) {
  cc.calls.front().request.as<grpc_call>()->reflect = true;
  return cc;
}

// What make_client refuses `cc` with; "(not refused)" when it makes a client.
std::string refusal(const client_config& cc, const protocol& p = grpcpp()) {
  try {
    p.make_client(cc);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(not refused)";
}

// Every call made at once completes with `reply`.
void expect_all_replied(protocol_client& client, int calls, const std::string& reply) {
  std::vector<test::call_result> results(calls);
  std::atomic<int> done{0};
  for (int i = 0; i < calls; ++i)
    client.async_greet("", [&, i](std::error_code ec, std::string_view body) {
      results[i] = {ec, std::string(body), true};
      ++done;
    });
  for (int i = 0; i < 1000 && done.load() < calls; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_EQ(done.load(), calls);
  for (const auto& r : results) {
    ASSERT_FALSE(r.ec) << r.ec.message();
    ASSERT_EQ(r.reply, reply);
  }
}

class grpc_user_call : public ::testing::Test {
 protected:
  void SetUp() override { server_ = grpcpp().make_server(server_config{}); }
  std::unique_ptr<protocol_server> server_;
};

// The shapes of a user call, from each client (ours, `grpc`, and grpc++'s, `grpcpp`) against
// each server, and from ours in Connect and gRPC-Web (`connect`, `grpc-web`: the same codec on
// another wire; `connect-json`, its messages in JSON; `grpc-web-text`, its bodies in base64)
// against ours: the same calls, the same JSON.
struct pairing {
  const char* client;
  const char* server;
};
void PrintTo(const pairing& p, std::ostream* os) { *os << p.client << " to " << p.server; }
class grpc_user_call_shapes : public ::testing::TestWithParam<pairing> {
 protected:
  void SetUp() override { server_ = test::builtin_protocol(GetParam().server).make_server(server_config{}); }
  const protocol& client() const { return test::builtin_protocol(GetParam().client); }
  std::unique_ptr<protocol_server> server_;
};
INSTANTIATE_TEST_SUITE_P(clients_and_servers, grpc_user_call_shapes,
                         ::testing::Values(pairing{"grpcpp", "grpcpp"}, pairing{"grpc", "grpc"},
                                           pairing{"grpc", "grpcpp"}, pairing{"grpcpp", "grpc"},
                                           pairing{"connect", "grpc"}, pairing{"grpc-web", "grpc"},
                                           pairing{"connect-json", "grpc"}, pairing{"grpc-web-text", "grpc"}),
                         [](const auto& info) {
                           std::string name = std::string(info.param.client) + "_to_" + info.param.server;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST_P(grpc_user_call_shapes, any_unary_method_from_the_proto_round_trips_as_json) {
  auto greet = client().make_client(
      calling(server_->local_endpoint(), "wirebench.echo.Echo/Greet", R"({"name": "ann"})"));
  EXPECT_FALSE(greet->greets());
  expect_all_replied(*greet, 200, R"({"greeting":"hello, ann"})");
  auto get = client().make_client(
      calling(server_->local_endpoint(), "wirebench.echo.Echo/Get", R"({"text": "some words"})"));
  expect_all_replied(*get, 10, R"({"text":"some words"})");
  // grpc++'s server counts greet calls; ours every request it answers, Echo's fixtures too.
  EXPECT_EQ(server_->stats().requests, std::string_view(GetParam().server) == "grpc" ? 210u : 200u);
}

// Streaming methods: each call is one stream. Server streaming: one request, every reply, as a
// JSON array. Client streaming: -d's array, one message each, then the one reply. Bidi: both.
TEST_P(grpc_user_call_shapes, streaming_methods_are_a_stream_per_call) {
  auto expand = client().make_client(
      calling(server_->local_endpoint(), "wirebench.echo.Echo/Expand", R"({"text": "a bc d"})"));
  expect_all_replied(*expand, 50, R"([{"text":"a"},{"text":"bc"},{"text":"d"}])");
  auto collect = client().make_client(calling(server_->local_endpoint(), "wirebench.echo.Echo/Collect",
                                            R"([{"text": "ab"}, {"text": "c"}, {}])"));
  expect_all_replied(*collect, 50, R"({"text":"abc"})");
  auto update = client().make_client(calling(server_->local_endpoint(), "wirebench.echo.Echo/Update",
                                           R"([{"text": "x"}, {"text": "y"}])"));
  expect_all_replied(*update, 50, R"([{"text":"x"},{"text":"y"}])");
  // A server-streaming reply of nothing: an empty array.
  auto none = client().make_client(
      calling(server_->local_endpoint(), "wirebench.echo.Echo/Expand", R"({"text": ""})"));
  expect_all_replied(*none, 5, "[]");
}

// A list of messages for a method that is not client-streaming: each call sends the next (ghz's
// --data with an array), unary and server-streaming alike, from both clients.
TEST_P(grpc_user_call_shapes, a_list_of_messages_is_one_per_call_in_turn) {
  auto get = client().make_client(calling(server_->local_endpoint(), "wirebench.echo.Echo/Get",
                                          R"([{"text": "a"}, {"text": "b"}, {"text": "c"}])"));
  std::string replies;
  for (int i = 0; i < 6; ++i) replies += test::greet_sync(*get, "").reply + " ";
  EXPECT_EQ(replies, R"({"text":"a"} {"text":"b"} {"text":"c"} {"text":"a"} {"text":"b"} {"text":"c"} )");
  auto expand = client().make_client(calling(server_->local_endpoint(), "wirebench.echo.Echo/Expand",
                                             R"([{"text": "x y"}, {"text": "z"}])"));
  EXPECT_EQ(test::greet_sync(*expand, "").reply, R"([{"text":"x"},{"text":"y"}])");
  EXPECT_EQ(test::greet_sync(*expand, "").reply, R"([{"text":"z"}])");
  EXPECT_NE(refusal(calling(server_->local_endpoint(), "wirebench.echo.Echo/Get", "[]"), client())
                .find("no request message"),
            std::string::npos);
}

// A mix of methods, unary and streaming: each call sends the method its payload names, and its
// reply is read as that method's.
TEST_P(grpc_user_call_shapes, a_mix_sends_the_method_each_call_names) {
  client_config cc = calling(server_->local_endpoint(), "wirebench.echo.Echo/Get", R"({"text": "g"})");
  cc.calls.push_back(calling(server_->local_endpoint(), "wirebench.echo.Echo/Greet", R"({"name": "m"})").calls[0]);
  cc.calls.push_back(calling(server_->local_endpoint(), "wirebench.echo.Echo/Expand", R"({"text": "p q"})").calls[0]);
  auto client = this->client().make_client(cc);
  EXPECT_EQ(test::greet_sync(*client, request_payload(1)).reply, R"({"greeting":"hello, m"})");
  EXPECT_EQ(test::greet_sync(*client, request_payload(0)).reply, R"({"text":"g"})");
  EXPECT_EQ(test::greet_sync(*client, request_payload(2)).reply, R"([{"text":"p"},{"text":"q"}])");
  EXPECT_EQ(test::greet_sync(*client, request_payload(0)).reply, R"({"text":"g"})");
  const auto none = test::greet_sync(*client, "3");  // names no request of the three
  EXPECT_TRUE(none.completed);
  EXPECT_EQ(none.ec, std::errc::invalid_argument) << none.ec.message();
}

// `__rand_int__` in a string field: each call's own 12 digits, in unary and streaming requests
// alike (the serialized message keeps its length, so it still parses).
TEST_P(grpc_user_call_shapes, rand_int_in_a_string_field_is_new_digits_in_each_call) {
  for (const char* method : {"wirebench.echo.Echo/Get", "wirebench.echo.Echo/Collect"}) {
    SCOPED_TRACE(method);
    client_config cc = calling(server_->local_endpoint(), method, R"({"text": "k:__rand_int__"})");
    cc.calls.front().keyspace = 1'000'000'000'000;  // twelve random digits: a repeat would be a fluke
    auto c = client().make_client(cc);
    std::set<std::string> replies;
    for (int i = 0; i < 20; ++i) {
      const test::call_result r = test::greet_sync(*c, "");
      ASSERT_FALSE(r.ec) << r.ec.message();
      ASSERT_TRUE(std::regex_match(r.reply, std::regex(R"(\{"text":"k:[0-9]{12}"\})"))) << r.reply;
      replies.insert(r.reply);
    }
    EXPECT_EQ(replies.size(), 20u);
  }
}

// --reflect: no .proto; the client asks the server (its reflection, v1alpha) what the method is.
TEST_P(grpc_user_call_shapes, reflect_finds_the_method_on_the_server) {
  auto c = client().make_client(
      reflecting(calling(server_->local_endpoint(), "wirebench.echo.Echo/Greet", R"({"name": "r"})", "")));
  expect_all_replied(*c, 20, R"({"greeting":"hello, r"})");
  auto expand = client().make_client(
      reflecting(calling(server_->local_endpoint(), "wirebench.echo.Echo/Expand", R"({"text": "p q"})", "")));
  expect_all_replied(*expand, 5, R"([{"text":"p"},{"text":"q"}])");
  const std::string why = refusal(
      reflecting(calling(server_->local_endpoint(), "wirebench.echo.Nope/Get", "{}", "")), client());
  EXPECT_NE(why.find("reflect: wirebench.echo.Nope"), std::string::npos) << why;
}

TEST_P(grpc_user_call_shapes, a_method_the_server_lacks_fails_each_call_with_its_status) {
  // Declared in the .proto, not served: UNIMPLEMENTED is the server's word. grpc++'s client calls
  // it remote_error; ours counts it by the status's name.
  const std::string dir = ::testing::TempDir();
  // A file of its own: the four pairings run at once under ctest -j.
  const std::string proto =
      dir + "/other_" + GetParam().client + "_to_" + GetParam().server + ".proto";
  std::ofstream(proto) << "syntax = \"proto3\";\npackage other;\nmessage M { string s = 1; }\n"
                          "service S { rpc Call(M) returns (M); }\n";
  auto c = client().make_client(calling(server_->local_endpoint(), "other.S/Call", "{}", proto));
  const auto r = test::greet_sync(*c, "");
  ASSERT_TRUE(r.completed);
  const std::string_view client = GetParam().client;
  if (client == "grpcpp") EXPECT_EQ(r.ec, errc::remote_error);
  else if (client.starts_with("connect")) EXPECT_EQ(error_name(r.ec), "connect_unimplemented") << r.ec.message();
  else EXPECT_EQ(error_name(r.ec), "status_UNIMPLEMENTED") << r.ec.message();
}

// Article 003's Echo API under its own name (proto/echo_v1.proto, echo.v1.Echo): our server
// answers its four methods from every client, each wire; its service has no Greet.
TEST(grpc_user_call_article, echo_v1_answers_under_its_own_name_in_every_wire) {
  auto server = test::builtin_protocol("grpc").make_server(server_config{});
  const std::string proto = std::string(WIREBENCH_PROTO_DIR) + "/echo_v1.proto";
  for (const char* name : {"grpc", "connect", "grpc-web", "grpcpp", "connect-json", "grpc-web-text"}) {
    SCOPED_TRACE(name);
    const protocol& p = test::builtin_protocol(name);
    auto get = p.make_client(calling(server->local_endpoint(), "echo.v1.Echo/Get", R"({"text": "hello"})", proto));
    expect_all_replied(*get, 5, R"({"text":"hello"})");
    auto expand = p.make_client(calling(server->local_endpoint(), "echo.v1.Echo/Expand", R"({"text": "1 2 3"})", proto));
    expect_all_replied(*expand, 5, R"([{"text":"1"},{"text":"2"},{"text":"3"}])");
    auto collect = p.make_client(calling(server->local_endpoint(), "echo.v1.Echo/Collect",
                                         R"([{"text": "hello 0 "}, {"text": "hello 1"}])", proto));
    expect_all_replied(*collect, 5, R"({"text":"hello 0 hello 1"})");
    auto update = p.make_client(calling(server->local_endpoint(), "echo.v1.Echo/Update",
                                        R"([{"text": "u0"}, {"text": "u1"}])", proto));
    expect_all_replied(*update, 5, R"([{"text":"u0"},{"text":"u1"}])");
  }
  // Greet is ours alone: under echo.v1 it is an unknown method.
  const std::string greet_proto = ::testing::TempDir() + "/echo_v1_greet.proto";
  std::ofstream(greet_proto) << "syntax = \"proto3\";\npackage echo.v1;\nmessage M { string name = 2; }\n"
                                "service Echo { rpc Greet(M) returns (M); }\n";
  auto greet = test::builtin_protocol("grpc").make_client(
      calling(server->local_endpoint(), "echo.v1.Echo/Greet", R"({"name": "x"})", greet_proto));
  const auto r = test::greet_sync(*greet, "");
  EXPECT_EQ(error_name(r.ec), "status_UNIMPLEMENTED") << r.reply;
  EXPECT_EQ(r.reply, "unknown method Greet");
}

// Over HTTP/1.1 (connect-h1, grpc-web-h1, and in JSON and text) every shape HTTP/1.1 carries, against our server on
// its one port; a bidirectional stream is refused by the server (505), each failure counted as
// its protocol counts them.
TEST(grpc_user_call_http1, every_shape_but_a_bidirectional_stream) {
  auto server = test::builtin_protocol("grpc").make_server(server_config{});
  for (const auto& [name, bidi_error] : {std::pair<const char*, const char*>{"connect-h1", "connect_unimplemented"},
                                         {"grpc-web-h1", "status_UNIMPLEMENTED"},
                                         {"connect-json-h1", "connect_unimplemented"},
                                         {"grpc-web-text-h1", "status_UNIMPLEMENTED"}}) {
    SCOPED_TRACE(name);
    const protocol& p = test::builtin_protocol(name);
    auto get = p.make_client(calling(server->local_endpoint(), "wirebench.echo.Echo/Get", R"({"text": "h1"})"));
    expect_all_replied(*get, 20, R"({"text":"h1"})");
    auto expand = p.make_client(calling(server->local_endpoint(), "wirebench.echo.Echo/Expand", R"({"text": "a b"})"));
    expect_all_replied(*expand, 20, R"([{"text":"a"},{"text":"b"}])");
    auto collect = p.make_client(calling(server->local_endpoint(), "wirebench.echo.Echo/Collect",
                                         R"([{"text": "x"}, {"text": "y"}])"));
    expect_all_replied(*collect, 20, R"({"text":"xy"})");
    auto update = p.make_client(calling(server->local_endpoint(), "wirebench.echo.Echo/Update", R"([{"text": "u"}])"));
    const auto r = test::greet_sync(*update, "");
    EXPECT_EQ(error_name(r.ec), bidi_error) << r.ec.message();
    EXPECT_EQ(r.reply, "a bidirectional stream needs HTTP/2");
  }
}

TEST(grpc_user_call_refusals, each_is_one_line_at_start_up) {
  const endpoint nowhere = endpoint::parse_or_throw("tcp://127.0.0.1:9");
  for (const char* name : {"grpcpp", "grpc"}) {
  SCOPED_TRACE(name);
  auto refused = [&](const std::string& method, const std::string& json, const std::string& proto) {
    return refusal(calling(nowhere, method, json, proto), test::builtin_protocol(name));
  };
  const std::string echo = WIREBENCH_ECHO_PROTO;
  EXPECT_NE(refused("wirebench.echo.Echo/Nope", "{}", echo).find("no method wirebench.echo.Echo/Nope"),
            std::string::npos);
  EXPECT_NE(refused("wirebench.echo.Nope/Get", "{}", echo).find("no service wirebench.echo.Nope"),
            std::string::npos);
  EXPECT_NE(refused("Get", "{}", echo).find("give package.Service/Method"), std::string::npos);
  EXPECT_NE(refused("wirebench.echo.Echo/Get", R"({"txt": 1})", echo).find("data: not a wirebench.echo.EchoRequest"),
            std::string::npos);
  EXPECT_NE(refused("wirebench.echo.Echo/Get", "{}", "/nonexistent.proto").find("no such file"),
            std::string::npos);
  const std::string broken = ::testing::TempDir() + "/broken.proto";
  std::ofstream(broken) << "syntax = \"proto3\";\nmessage {\n";
  EXPECT_NE(refused("a.B/C", "{}", broken).find("broken.proto:2:"), std::string::npos)
      << refused("a.B/C", "{}", broken);
  }
}

TEST(grpc_user_call_peers, our_client_calls_a_grpcio_server_written_from_the_same_proto) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  const int port = test::free_loopback_port();
  test::child_process peer({test::debian_python3, WIREBENCH_GRPCIO_PEER, "serve", std::to_string(port)});
  ASSERT_TRUE(test::wait_for_listener(port));
  for (const char* name : {"grpcpp", "grpc"}) {
    SCOPED_TRACE(name);
    auto client = test::builtin_protocol(name).make_client(
        calling(endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port)),
                "wirebench.echo.Echo/Get", R"({"text": "from grpcio"})"));
    expect_all_replied(*client, 100, R"({"text":"from grpcio"})");
    auto bidi = test::builtin_protocol(name).make_client(
        calling(endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port)),
                "wirebench.echo.Echo/Update", R"([{"text": "one"}, {"text": "two"}])"));
    expect_all_replied(*bidi, 50, R"([{"text":"one"},{"text":"two"}])");
  }

  // grpcio's server here offers no reflection: --reflect says so, in one line.
  for (const char* name : {"grpcpp", "grpc"}) {
    const std::string why = refusal(
        reflecting(calling(endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port)),
                           "wirebench.echo.Echo/Get", "{}", "")),
        test::builtin_protocol(name));
    EXPECT_NE(why.find("offers no reflection"), std::string::npos) << name << ": " << why;
  }
}

// -H with --call: request metadata, as grpcio's server reads it, from both clients; a -bin key's
// value is bytes (base64 on the wire). What a client sets itself is refused at start-up.
TEST(grpc_user_call_peers, metadata_from_either_client_reaches_a_grpcio_server) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  const int port = test::free_loopback_port();
  test::child_process peer({test::debian_python3, WIREBENCH_GRPCIO_PEER, "serve", std::to_string(port), "metadata"});
  ASSERT_TRUE(test::wait_for_listener(port));
  const endpoint at = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));
  for (const char* name : {"grpcpp", "grpc"}) {
    SCOPED_TRACE(name);
    client_config cc = calling(at, "wirebench.echo.Echo/Get", "{}");
    cc.calls.front().request.as<grpc_call>()->metadata = {{"X-Team", "blue sky"}, {"x-raw-bin", "\x01hi"}};
    auto client = test::builtin_protocol(name).make_client(cc);
    expect_all_replied(*client, 5, R"({"text":"x-raw-bin=bin:016869;x-team=blue sky;"})");
    for (const auto& [key, value, why] :
         {std::tuple{"grpc-timeout", "1S", "the gRPC client sets it itself"},
          std::tuple{"content-type", "text/plain", "the gRPC client sets it itself"},
          std::tuple{"bad key", "v", "is not a gRPC metadata key"},
          std::tuple{"x-a", "caf\xc3\xa9", "printable ASCII"}}) {
      client_config bad = calling(at, "wirebench.echo.Echo/Get", "{}");
      bad.calls.front().request.as<grpc_call>()->metadata = {{key, value}};
      EXPECT_NE(refusal(bad, test::builtin_protocol(name)).find(why), std::string::npos) << key << ": " << refusal(bad, test::builtin_protocol(name));
    }
  }
}

TEST_F(grpc_user_call, grpcio_lists_our_services_by_reflection) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("grpc", "python3-grpcio");
  int rc = 0;
  const std::string listed = test::run_shell(std::string(test::debian_python3) + " " + WIREBENCH_GRPCIO_PEER +
                                                 " reflect " +
                                                 std::to_string(server_->local_endpoint().port),
                                             &rc);
  EXPECT_EQ(rc, 0) << listed;
  EXPECT_NE(listed.find("wirebench.echo.Echo\n"), std::string::npos) << listed;
  EXPECT_NE(listed.find("grpc.reflection.v1alpha.ServerReflection\n"), std::string::npos) << listed;
}

// grpcurl (a Go module: scripts/setup builds it where Go is present; skipped, naming it, where
// it is missing): it lists our services by reflection, and calls Greet over TLS, verifying our
// certificate, with no .proto.
TEST(grpc_grpcurl, lists_our_services_and_calls_greet_over_tls_by_reflection) {
  WIREBENCH_REQUIRE_GO_TOOL(grpcurl, "grpcurl", "v1.9.3");
  auto plain = grpcpp().make_server(server_config{});
  int rc = 0;
  const std::string listed = test::run_shell(
      grpcurl + " -plaintext 127.0.0.1:" + std::to_string(plain->local_endpoint().port) + " list 2>&1", &rc);
  EXPECT_EQ(rc, 0) << listed;
  EXPECT_NE(listed.find("wirebench.echo.Echo\n"), std::string::npos) << listed;

  test::cert_files files;
  server_config sc;
  sc.tls.enabled = true;
  sc.tls.certificate_file = files.cert();
  sc.tls.private_key_file = files.key();
  auto tls = grpcpp().make_server(sc);
  const std::string reply = test::run_shell(
      grpcurl + " -cacert " + files.cert() + " -d '{\"name\": \"grpcurl\"}' 127.0.0.1:" +
          std::to_string(tls->local_endpoint().port) + " wirebench.echo.Echo/Greet 2>&1",
      &rc);
  EXPECT_EQ(rc, 0) << reply;
  EXPECT_NE(reply.find("\"greeting\": \"hello, grpcurl\""), std::string::npos) << reply;
}

}  // namespace
}  // namespace wirebench
