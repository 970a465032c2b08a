// msgpack-rpc against the spec: requests built byte by byte get the expected bytes back; wrong
// shapes, unknown methods and bad params get error responses; input that is not msgpack-rpc, or
// declares counts over the limits, closes that connection only.
#include <thread>

#include <gtest/gtest.h>

#include "support/protocol_cases.hpp"
#include "support/raw_socket.hpp"
#include "support/sync_call.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int x : b) s.push_back(static_cast<char>(x));
  return s;
}
std::string fixstr(std::string_view s) { return static_cast<char>(0xa0 | s.size()) + std::string(s); }

class msgpack_rpc : public ::testing::Test {
 protected:
  void SetUp() override { server_ = test::start_server("msgpack-rpc", /*max_frame_bytes=*/1024); }
  // Sends `request` on a fresh connection and returns `want` bytes of reply.
  std::string exchange(const std::string& request, std::size_t want) {
    test::raw_socket peer(server_->local_endpoint());
    peer.send_all(request);
    return peer.read_for(5s, want);
  }
  // Sends `request` on a fresh connection and returns the error response it gets, read to its
  // last byte (not until a timeout): [1, msgid, message, nil] with a one-byte msgid and the
  // message a fixstr or a str8. Anything else is returned as far as it was read, for the test's
  // comparison to show.
  std::string exchange_for_error(const std::string& request) {
    test::raw_socket peer(server_->local_endpoint());
    peer.send_all(request);
    std::string reply = peer.read_for(5s, 4);  // array, type, msgid, the message's first byte
    if (reply.size() < 4) return reply;
    const auto tag = static_cast<unsigned char>(reply[3]);
    std::size_t length = 0;
    if ((tag & 0xe0) == 0xa0) {
      length = tag & 0x1f;  // fixstr
    } else if (tag == 0xd9) {
      reply += peer.read_for(5s, 1);  // str8: its length byte
      if (reply.size() < 5) return reply;
      length = static_cast<unsigned char>(reply[4]);
    } else {
      return reply;
    }
    return reply + peer.read_for(5s, length + 1);  // the message, then nil
  }
  std::unique_ptr<protocol_server> server_;
};

TEST_F(msgpack_rpc, spec_request_gets_the_spec_response) {
  // [0, 1, "greet", ["bob"]]  ->  [1, 1, nil, "hello, bob"]
  const std::string request = bytes({0x94, 0x00, 0x01}) + fixstr("greet") + bytes({0x91}) + fixstr("bob");
  const std::string expected = bytes({0x94, 0x01, 0x01, 0xc0}) + fixstr("hello, bob");
  EXPECT_EQ(exchange(request, expected.size()), expected);
}

TEST_F(msgpack_rpc, msgid_of_any_width_is_echoed_and_pipelined_requests_all_answered) {
  // msgid as uint32 (0xce) 0x01020304, then as uint8 (0xcc) 200, in one write.
  const std::string a = bytes({0x94, 0x00, 0xce, 0x01, 0x02, 0x03, 0x04}) + fixstr("greet") +
                        bytes({0x91}) + fixstr("a");
  const std::string b = bytes({0x94, 0x00, 0xcc, 200}) + fixstr("greet") + bytes({0x91}) + fixstr("b");
  const std::string want = bytes({0x94, 0x01, 0xce, 0x01, 0x02, 0x03, 0x04, 0xc0}) + fixstr("hello, a") +
                           bytes({0x94, 0x01, 0xcc, 200, 0xc0}) + fixstr("hello, b");
  EXPECT_EQ(exchange(a + b, want.size()), want);
}

TEST_F(msgpack_rpc, unknown_method_and_bad_params_get_error_responses) {
  const std::string unknown = bytes({0x94, 0x00, 0x05}) + fixstr("nope") + bytes({0x90});
  const std::string want = bytes({0x94, 0x01, 0x05}) + fixstr("unknown method 'nope'") + bytes({0xc0});
  EXPECT_EQ(exchange(unknown, want.size()), want);

  const std::string two_params =
      bytes({0x94, 0x00, 0x06}) + fixstr("greet") + bytes({0x92}) + fixstr("a") + fixstr("b");
  const std::string reply = exchange_for_error(two_params);
  ASSERT_GE(reply.size(), 4u);
  EXPECT_EQ(reply.substr(0, 3), bytes({0x94, 0x01, 0x06}));
  EXPECT_NE(reply.find("greet takes one string parameter"), std::string::npos);
  EXPECT_EQ(reply.back(), '\xc0');
}

TEST_F(msgpack_rpc, wrong_shape_with_a_readable_msgid_gets_an_error_response) {
  const std::string three = bytes({0x93, 0x00, 0x07}) + fixstr("greet");  // [0, 7, "greet"]
  const std::string reply = exchange_for_error(three);
  EXPECT_EQ(reply.substr(0, 3), bytes({0x94, 0x01, 0x07}));
  EXPECT_NE(reply.find("malformed request"), std::string::npos);
}

TEST_F(msgpack_rpc, notifications_get_no_reply) {
  test::raw_socket peer(server_->local_endpoint());
  // [2, "greet", ["x"]] then a request: only the request is answered.
  peer.send_all(bytes({0x93, 0x02}) + fixstr("greet") + bytes({0x91}) + fixstr("x") +
                bytes({0x94, 0x00, 0x09}) + fixstr("greet") + bytes({0x91}) + fixstr("y"));
  const std::string want = bytes({0x94, 0x01, 0x09, 0xc0}) + fixstr("hello, y");
  EXPECT_EQ(peer.read_for(5s, want.size()), want);
}

TEST_F(msgpack_rpc, garbage_and_over_limit_counts_close_the_connection_only) {
  client_config cc;
  cc.connect = server_->local_endpoint();
  auto good = protocol_registry::builtin().find("msgpack-rpc")->make_client(cc);
  EXPECT_EQ(test::greet_sync(*good, "before").reply, "hello, before");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {bytes({0xc1}), "protocol_error"},                                 // never-used byte
      {bytes({0x81, 0xa1, 'k', 0x01}), "protocol_error"},                // a map, not a message
      {bytes({0x94, 0x05, 0x01, 0x02, 0x03}), "protocol_error"},         // [5, 1, 2, 3]: no such type
      {bytes({0xdd, 0xff, 0xff, 0xff, 0xff}), "frame_too_long"},         // array of 2^32-1: at once
      // A string declared 2 GiB long: msgpack checks string limits only once the body is in, so
      // it is refused when more than the buffer limit has actually arrived (never allocated).
      {bytes({0xdb, 0x7f, 0xff, 0xff, 0xff}) + std::string(10000, 'x'), "frame_too_long"},
      {std::string(20, '\x91'), "frame_too_long"},                       // nesting depth 20
  };
  for (const auto& [input, reason] : cases) {
    test::raw_socket peer(server_->local_endpoint());
    peer.send_all(input);
    bool eof = false;
    peer.read_for(5s, SIZE_MAX, &eof);
    EXPECT_TRUE(eof) << "input of " << input.size() << " bytes should close (" << reason << ")";
  }
  // The server records a close just after closing the socket: the peer may see EOF first.
  auto reasons = server_->stats().close_reasons;
  for (int i = 0; i < 1000 && reasons["frame_too_long"] + reasons["protocol_error"] < 6; ++i) {
    std::this_thread::sleep_for(5ms);
    reasons = server_->stats().close_reasons;
  }
  EXPECT_EQ(reasons["protocol_error"], 3u);
  EXPECT_EQ(reasons["frame_too_long"], 3u);
  EXPECT_EQ(test::greet_sync(*good, "after").reply, "hello, after");
}

}  // namespace
}  // namespace wirebench
