// Mixes of user calls (client_config::calls with several): each codec sends the request a call's
// payload names, exact bytes, and judges each reply by the request it answers (in order for
// RESP and HTTP/1.1, by stream for HTTP/2); a payload that names no request fails the call.
// Then mixes end to end through the load drivers, closed and open loop, against our servers and
// a MessagePack-RPC server we did not write: each request gets its share and its own results.
#include <algorithm>
#include <fstream>

#include <gtest/gtest.h>

#include "support/protocol_cases.hpp"

#include "support/user_calls.hpp"
#include "support/child_process.hpp"
#include "support/queued_text.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/core/status_error.hpp"
#include "wirebench/load/load_driver.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;


using test::take_queued_text;

client_config with_calls(std::vector<user_call> calls) {
  client_config c;
  c.calls = std::move(calls);
  return c;
}

std::vector<codec_reply> decode_all(client_codec& codec, std::string_view bytes, std::vector<std::string>& texts) {
  decoded into;
  gather_queue out;
  std::error_code error;
  codec.decode(as_bytes(bytes), into, out, error);
  EXPECT_FALSE(error) << error.message();
  for (const auto& r : into.replies) texts.emplace_back(r.body);
  return into.replies;
}

TEST(user_call_mix, payloads_name_requests_by_their_decimal_index) {
  EXPECT_EQ(request_payload(0), "0");
  EXPECT_EQ(request_payload(42), "42");
  EXPECT_EQ(request_index("2", 3), 2u);
  EXPECT_EQ(request_index("3", 3), std::nullopt);
  EXPECT_EQ(request_index("w0-", 3), std::nullopt);
  EXPECT_EQ(request_index("", 2), std::nullopt);
  EXPECT_EQ(request_index("w0-", 1), 0u);  // one call: any payload (a name) is it
}

TEST(user_call_mix, resp_sends_the_command_named_and_judges_each_reply_by_its_own) {
  auto codec = test::builtin_protocol("resp").client_codecs(with_calls({user_call{resp_call{{"SET", "k", "v"}, "OK"}},
                                                      user_call{resp_call{{"GET", "k"}, "v"}},
                                                      user_call{resp_call{{"INCR", "n"}}}}))();
  gather_queue out;
  for (const char* payload : {"1", "0", "2", "1"}) ASSERT_FALSE(codec->encode(1, payload, out));
  EXPECT_EQ(take_queued_text(out), "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n" "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n"
                        "*2\r\n$4\r\nINCR\r\n$1\r\nn\r\n" "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n");
  EXPECT_EQ(codec->encode(1, "3", out), make_error_code(errc::invalid_argument));
  EXPECT_EQ(codec->encode(1, "w0-", out), make_error_code(errc::invalid_argument));
  EXPECT_EQ(take_queued_text(out), "");
  // In order: GET's v, SET's OK, INCR's 7 (any reply), and GET's "OK" is not GET's v.
  std::vector<std::string> texts;
  const auto r = decode_all(*codec, "$1\r\nv\r\n+OK\r\n:7\r\n+OK\r\n", texts);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_FALSE(r[0].error);
  EXPECT_FALSE(r[1].error);
  EXPECT_FALSE(r[2].error);
  EXPECT_EQ(r[3].error, errc::wrong_reply);
  EXPECT_EQ(texts, (std::vector<std::string>{"v", "OK", "7", "OK"}));
}

TEST(user_call_mix, http1_sends_the_request_named_and_judges_each_response_by_its_own) {
  http_call a, b;
  a.target = "/a";
  a.expect_body = "A";
  b.method = "POST";
  b.target = "/b";
  b.body = "x";
  b.expect_status = 201;
  auto codec = test::builtin_protocol("http1").client_codecs(with_calls({user_call{a}, user_call{b}}))();
  gather_queue out;
  ASSERT_FALSE(codec->encode(1, "1", out));
  ASSERT_FALSE(codec->encode(2, "0", out));
  EXPECT_EQ(take_queued_text(out),
            "POST /b HTTP/1.1\r\nHost: 127.0.0.1:7000\r\nContent-Length: 1\r\n\r\nx"
            "GET /a HTTP/1.1\r\nHost: 127.0.0.1:7000\r\n\r\n");
  std::vector<std::string> texts;
  const auto r = decode_all(*codec,
                            "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"
                            "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nA", texts);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_FALSE(r[0].error) << r[0].error.message();
  EXPECT_FALSE(r[1].error) << r[1].error.message();
  // The other way round each is the other's failure: 200 is not POST's 201, 201 not GET's 200.
  ASSERT_FALSE(codec->encode(3, "0", out));
  ASSERT_FALSE(codec->encode(4, "1", out));
  texts.clear();
  const auto swapped = decode_all(*codec,
                                  "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n"
                                  "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nA", texts);
  ASSERT_EQ(swapped.size(), 2u);
  EXPECT_EQ(swapped[0].error, unexpected_status(201));
  EXPECT_EQ(swapped[1].error, unexpected_status(200));
}

// Through the registry, as every client is made: __payload_N__ is N bytes in the request (its
// length counted), the per-call placeholders filled per call.
TEST(user_call_mix, payloads_are_expanded_and_per_call_placeholders_filled_in_every_request) {
  auto codec = test::builtin_protocol("resp").client_codecs(with_calls({user_call{resp_call{{"SET", "k:__rand_str__", "__payload_5__"}}},
                                                      user_call{resp_call{{"GET", "__sequence__"}}}}))();
  gather_queue out;
  ASSERT_FALSE(codec->encode(1, "0", out));
  const std::string set = take_queued_text(out);
  EXPECT_EQ(set.substr(0, 20), "*3\r\n$3\r\nSET\r\n$14\r\nk:");
  EXPECT_EQ(set.substr(32), "\r\n$5\r\nxxxxx\r\n");
  ASSERT_FALSE(codec->encode(2, "1", out));
  ASSERT_FALSE(codec->encode(3, "1", out));
  const std::string gets = take_queued_text(out);
  ASSERT_EQ(gets.size(), 2 * 32u);
  EXPECT_EQ(std::stoull(gets.substr(18 + 32, 12)), std::stoull(gets.substr(18, 12)) + 1);
  http_call big;
  big.method = "POST";
  big.body = "__payload_1000__";
  auto http = test::builtin_protocol("http1").client_codecs(with_calls({user_call{big}}))();
  ASSERT_FALSE(http->encode(1, "x", out));
  const std::string request = take_queued_text(out);
  EXPECT_NE(request.find("Content-Length: 1000\r\n"), std::string::npos) << request.substr(0, 100);
  EXPECT_EQ(request.substr(request.size() - 1000), std::string(1000, 'x'));
  http_call bad;
  bad.body = "__payload_x__";
  EXPECT_THROW(test::builtin_protocol("http2").client_codecs(with_calls({user_call{bad}})), std::invalid_argument);
}

TEST(user_call_mix, http1_refuses_a_mix_of_head_and_other_methods) {
  http_call head, get;
  head.method = "HEAD";
  EXPECT_THROW(test::builtin_protocol("http1").client_codecs(with_calls({user_call{head}, user_call{get}})),
               std::invalid_argument);
  EXPECT_NO_THROW(test::builtin_protocol("http1").client_codecs(with_calls({user_call{head}, user_call{head}})));
}

TEST(user_call_mix, protocols_without_mixes_refuse_one) {
  const client_config two = with_calls({user_call{resp_call{{"PING"}}}, user_call{resp_call{{"PING"}}}});
  for (const protocol& p : protocol_registry::builtin().all()) {
    if (p.can.user_calls) continue;
    EXPECT_THROW(p.make_client(two), setting_error) << p.name;
  }
}

// Through the load driver: the requests' shares follow the weights exactly (each worker walks
// whole cycles but for its last few calls), every call is under one request, and a request the
// server fails is failed on its own.
class mix_through_the_driver : public ::testing::TestWithParam<const char*> {};

std::vector<user_call> greet_mix(const protocol& p) {
  const std::string kind = p.can.user_calls->name;
  if (kind == "http") {
    http_call a, b, missing;
    a.target = "/greet?name=a";
    a.expect_body = R"({"greeting":"hello, a"})";
    b.target = "/greet?name=b";
    b.expect_body = R"({"greeting":"hello, b"})";
    missing.target = "/missing";
    user_call one{a}, two{b}, three{missing};
    one.weight = 5, two.weight = 3, three.weight = 2;
    return {one, two, three};
  }
  if (kind == "resp") {
    user_call one{resp_call{{"GREET", "a"}, "hello, a"}}, two{resp_call{{"ECHO", "b"}, "b"}},
        three{resp_call{{"NOSUCH"}}};
    one.weight = 5, two.weight = 3, three.weight = 2;
    return {one, two, three};
  }
  if (kind == "grpc") {
    // The third is declared in a .proto of its own and served by nobody: UNIMPLEMENTED.
    const std::string other = ::testing::TempDir() + "/mix_other_" + p.name + ".proto";
    std::ofstream(other) << "syntax = \"proto3\";\npackage other;\nmessage M { string s = 1; }\n"
                            "service S { rpc Call(M) returns (M); }\n";
    user_call one{grpc_call{.method = "wirebench.echo.Echo/Greet", .proto_file = WIREBENCH_ECHO_PROTO,
                            .request_json = R"({"name": "a"})"}},
        two{grpc_call{.method = "wirebench.echo.Echo/Expand", .proto_file = WIREBENCH_ECHO_PROTO,
                      .request_json = R"({"text": "b c"})"}},
        three{grpc_call{.method = "other.S/Call", .proto_file = other}};
    one.weight = 5, two.weight = 3, three.weight = 2;
    return {one, two, three};
  }
  if (kind == "msgpack") {
    user_call one{msgpack_call{"greet", R"(["a"])"}}, two{msgpack_call{"greet", R"(["b"])"}},
        three{msgpack_call{"missing", "[]"}};
    one.weight = 5, two.weight = 3, three.weight = 2;
    return {one, two, three};
  }
  return {};
}

TEST_P(mix_through_the_driver, each_request_gets_its_share_and_its_own_results) {
  const protocol& p = test::builtin_protocol(GetParam());
  auto server = p.make_server({});
  client_config cc = with_calls(greet_mix(p));
  cc.connect = server->local_endpoint();
  cc.connections = 2;
  auto client = p.make_client(cc);
  for (const bool open : {false, true}) {
    SCOPED_TRACE(open ? "open loop" : "closed loop");
    load_spec spec;
    spec.workers = 4;
    spec.calls = 2000;
    spec.duration = 30s;  // the cap; 2000 calls take well under it
    spec.request_weights = {5, 3, 2};
    if (open) {
      spec.arrivals = arrival_kind::uniform;
      spec.rate = 4000;
    }
    const load_result r = run_load(*client, spec);
    ASSERT_EQ(r.gave_up, "");
    ASSERT_EQ(r.per_request.size(), 3u);
    EXPECT_EQ(r.outcomes.total(), 2000u);
    // Each worker or shard walks whole cycles of 10 but for its last few calls.
    EXPECT_NEAR(static_cast<double>(r.per_request[0].outcomes.total()), 1000, 4 * 5);
    EXPECT_NEAR(static_cast<double>(r.per_request[1].outcomes.total()), 600, 4 * 3);
    EXPECT_NEAR(static_cast<double>(r.per_request[2].outcomes.total()), 400, 4 * 2);
    EXPECT_EQ(r.per_request[0].outcomes.total() + r.per_request[1].outcomes.total() +
                  r.per_request[2].outcomes.total(), 2000u);
    // The first two succeed, the third fails, each as its server says.
    EXPECT_EQ(r.per_request[0].outcomes.failed(), 0u) << r.per_request[0].outcomes.errors().begin()->first;
    EXPECT_EQ(r.per_request[1].outcomes.failed(), 0u);
    EXPECT_EQ(r.per_request[2].outcomes.count(outcome::ok), 0u);
    EXPECT_EQ(r.per_request[0].latency.count(), r.per_request[0].outcomes.count(outcome::ok));
    EXPECT_EQ(r.outcomes.count(outcome::ok),
              r.per_request[0].outcomes.count(outcome::ok) + r.per_request[1].outcomes.count(outcome::ok));
  }
  client->close();
  server->stop();
}

INSTANTIATE_TEST_SUITE_P(our_servers, mix_through_the_driver,
                         ::testing::Values("http1", "http2", "resp", "msgpack-rpc", "grpc", "grpcpp"),
                         [](const auto& info) {  // by name: TSan builds leave out *grpcpp*
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A MessagePack-RPC server we did not write (python3-msgpack): add and echo in one mix, each
// answered by its own method.
TEST(user_call_mix, a_msgpack_mix_against_a_python_server) {
  WIREBENCH_REQUIRE_PEER("python3", "python3-msgpack");
  const int port = test::free_loopback_port();
  test::child_process peer({test::debian_python3, WIREBENCH_MSGPACK_RPC_PEER, std::to_string(port)});
  ASSERT_TRUE(test::wait_for_listener(port));
  user_call add{msgpack_call{"add", "[2, 3]"}}, echo{msgpack_call{"echo", R"(["hi"])"}};
  echo.weight = 3;
  client_config cc = with_calls({add, echo});
  cc.connect = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));
  auto client = test::builtin_protocol("msgpack-rpc").make_client(cc);
  const auto sum = test::greet_sync(*client, request_payload(0));
  EXPECT_FALSE(sum.ec) << sum.ec.message();
  EXPECT_EQ(sum.reply, "5");
  const auto said = test::greet_sync(*client, request_payload(1));
  EXPECT_FALSE(said.ec) << said.ec.message();
  EXPECT_EQ(said.reply, "hi");
  load_spec spec;
  spec.workers = 2;
  spec.calls = 400;
  spec.duration = 30s;
  spec.request_weights = {1, 3};
  const load_result r = run_load(*client, spec);
  ASSERT_EQ(r.per_request.size(), 2u);
  EXPECT_EQ(r.outcomes.count(outcome::ok), 400u);
  EXPECT_EQ(r.per_request[0].outcomes.count(outcome::ok), 100u);
  EXPECT_EQ(r.per_request[1].outcomes.count(outcome::ok), 300u);
  client->close();
}

}  // namespace
}  // namespace wirebench
