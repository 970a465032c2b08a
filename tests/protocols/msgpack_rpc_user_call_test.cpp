// MessagePack-RPC user calls (msgpack_call): any method with JSON params, exact bytes out, any
// result or error back; against our server and against a server on python3-msgpack
// (msgpack_rpc_peer.py), which scripts/setup installs.
#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/user_calls.hpp"
#include "support/child_process.hpp"
#include "support/queued_text.hpp"
#include "support/require_peer.hpp"
#include "support/sync_call.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

const protocol& rpc() { return *protocol_registry::builtin().find("msgpack-rpc"); }

client_config calling_method(const endpoint& where, const std::string& method, const std::string& params) {
  client_config cc;
  cc.connect = where;
  cc.reply_timeout = 10s;
  cc.calls = {user_call{msgpack_call{.method = method, .params_json = params}}};
  return cc;
}

using test::take_queued_text;

TEST(msgpack_rpc_user_call, the_request_is_packed_once_and_each_call_gets_its_msgid) {
  const endpoint nowhere = endpoint::parse_or_throw("tcp://127.0.0.1:9");
  auto codec = rpc().client_codecs(calling_method(nowhere, "add", "[2, 3]"))();
  gather_queue out;
  ASSERT_FALSE(codec->encode(7, "", out));
  // [0, 7, "add", [2, 3]]
  EXPECT_EQ(take_queued_text(out), std::string("\x94\x00\x07\xa3" "add" "\x92\x02\x03", 10));
  ASSERT_FALSE(codec->encode(300, "", out));
  EXPECT_EQ(take_queued_text(out), std::string("\x94\x00\xcd\x01\x2c\xa3" "add" "\x92\x02\x03", 12));

  // [1, 7, nil, 5], [1, 300, "boom", nil], [1, 9, {"code": 1}, nil]
  const std::string replies("\x94\x01\x07\xc0\x05" "\x94\x01\xcd\x01\x2c\xa4" "boom" "\xc0"
                            "\x94\x01\x09\x81\xa4" "code" "\x01\xc0", 27);
  decoded into;
  std::error_code error;
  codec->decode(as_bytes(replies), into, out, error);
  ASSERT_FALSE(error);
  ASSERT_EQ(into.replies.size(), 3u);
  EXPECT_EQ(into.replies[0].id, 7u);
  EXPECT_FALSE(into.replies[0].error);
  EXPECT_EQ(into.replies[0].body, "5");
  EXPECT_EQ(into.replies[1].error, errc::remote_error);
  EXPECT_EQ(into.replies[1].body, "boom");
  EXPECT_EQ(into.replies[2].error, errc::remote_error);
  EXPECT_EQ(into.replies[2].body, R"({"code":1})");
}

// __rand_int__ in a string param: 12 digits in place for each call (the packed string keeps its
// length), as in HTTP and RESP user calls.
TEST(msgpack_rpc_user_call, the_placeholder_in_a_string_param_is_new_digits_per_call) {
  client_config cc = calling_method(endpoint::parse_or_throw("tcp://127.0.0.1:9"), "get", R"(["k:__rand_int__"])");
  cc.calls.front().keyspace = 1;  // every number is 0
  auto codec = rpc().client_codecs(cc)();
  gather_queue out;
  ASSERT_FALSE(codec->encode(1, "", out));
  EXPECT_EQ(take_queued_text(out), std::string("\x94\x00\x01\xa3" "get" "\x91\xae" "k:000000000000", 23));
}

TEST(msgpack_rpc_user_call, params_that_are_not_a_json_array_are_refused_at_start_up) {
  const endpoint nowhere = endpoint::parse_or_throw("tcp://127.0.0.1:9");
  EXPECT_THROW(rpc().make_client(calling_method(nowhere, "add", R"({"a": 1})")), std::invalid_argument);
  EXPECT_THROW(rpc().make_client(calling_method(nowhere, "add", "[1,")), std::invalid_argument);
  EXPECT_THROW(rpc().make_client(calling_method(nowhere, "", "[]")), std::invalid_argument);
}

TEST(msgpack_rpc_user_call, our_server_answers_greet_and_refuses_other_methods_by_name) {
  auto server = rpc().make_server(server_config{});
  auto greet = rpc().make_client(calling_method(server->local_endpoint(), "greet", R"(["ann"])"));
  EXPECT_FALSE(greet->greets());
  EXPECT_EQ(test::greet_sync(*greet, "").reply, "hello, ann");
  auto other = rpc().make_client(calling_method(server->local_endpoint(), "nope", "[]"));
  const auto r = test::greet_sync(*other, "");
  EXPECT_EQ(r.ec, errc::remote_error);
  EXPECT_EQ(r.reply, "unknown method 'nope'");
}

TEST(msgpack_rpc_user_call, our_client_against_a_python_msgpack_server) {
  WIREBENCH_REQUIRE_PYTHON_MODULE("msgpack", "python3-msgpack");
  const int port = test::free_loopback_port();
  test::child_process peer({test::debian_python3, WIREBENCH_MSGPACK_RPC_PEER, std::to_string(port)});
  ASSERT_TRUE(test::wait_for_listener(port));
  const endpoint where = endpoint::parse_or_throw("tcp://127.0.0.1:" + std::to_string(port));

  auto add = rpc().make_client(calling_method(where, "add", "[2, 3]"));
  std::atomic<int> right{0}, done{0};
  for (int i = 0; i < 200; ++i)
    add->async_greet("", [&](std::error_code ec, std::string_view reply) {
      if (!ec && reply == "5") ++right;
      ++done;
    });
  for (int i = 0; i < 1000 && done.load() < 200; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(right.load(), 200);

  auto echo = rpc().make_client(calling_method(where, "echo", R"([{"k": [1, "two"]}])"));
  EXPECT_EQ(test::greet_sync(*echo, "").reply, R"({"k":[1,"two"]})");
  auto fail = rpc().make_client(calling_method(where, "fail", "[]"));
  const auto f = test::greet_sync(*fail, "");
  EXPECT_EQ(f.ec, errc::remote_error);
  EXPECT_EQ(f.reply, "failed on purpose");
}

}  // namespace
}  // namespace wirebench
