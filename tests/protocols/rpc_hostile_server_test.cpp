// Our Connect and gRPC-Web clients over HTTP/1.1 (connect-h1, grpc-web-h1, grpc-web-text-h1)
// against a server that lies, each case written by hand as bytes: a body that never ends, a Content-Length or an
// envelope declaring gigabytes, garbage where an envelope should be, an error body nested
// 30 000 deep. Each call ends once, with a typed error, at once (not at its timeout), and the
// client holds no more than its reply limit.
#include <chrono>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "../../src/protocols/http/base64.hpp"
#include "proto/echo.pb.h"
#include "support/sync_call.hpp"
#include "support/trickle_server.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/error_condition.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

struct lie_outcome {
  std::string error;
  std::chrono::steady_clock::duration took;
};

// `protocol`'s client calls Greet once against a server that answers `response` whatever it is
// asked; the call's error's name and how long it took.
lie_outcome against(const std::string& protocol, const std::string& response,
                    std::chrono::milliseconds gap = 0ms) {
  test::trickle_server server(response, gap);
  client_config cc;
  cc.connect = server.where();
  cc.reply_timeout = 10s;
  cc.max_frame_bytes = 64 * 1024;  // the limit the lies below go past (the default is 4 MiB)
  auto client = protocol_registry::builtin().find(protocol)->make_client(cc);
  const auto start = std::chrono::steady_clock::now();
  const auto r = test::greet_sync(*client, "x");
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(r.completed);
  client->close();
  return {r.ec ? std::string(error_name(r.ec)) : std::string("ok"), took};
}

std::string head(std::string_view content_type, std::string_view framing) {
  return "HTTP/1.1 200 OK\r\ncontent-type: " + std::string(content_type) + "\r\n" + std::string(framing) + "\r\n";
}

const char* content_type_of(const std::string& protocol) {
  if (protocol == "connect-h1") return "application/proto";
  return protocol == "grpc-web-text-h1" ? "application/grpc-web-text+proto" : "application/grpc-web+proto";
}

class rpc_hostile_server : public ::testing::TestWithParam<std::string> {};

TEST_P(rpc_hostile_server, a_chunked_body_that_never_ends_is_refused_at_the_reply_limit) {
  // 4 MiB of 16 KiB chunks and no last chunk: far past the 64 KiB limit.
  std::string response = head(content_type_of(GetParam()), "transfer-encoding: chunked\r\n");
  const std::string chunk = "4000\r\n" + std::string(0x4000, 'x') + "\r\n";
  while (response.size() < (4u << 20)) response += chunk;
  const lie_outcome o = against(GetParam(), response);
  EXPECT_EQ(o.error, "frame_too_long");
  EXPECT_LT(o.took, 5s);
}

TEST_P(rpc_hostile_server, a_content_length_of_gigabytes_is_refused_before_the_body) {
  const lie_outcome o = against(GetParam(), head(content_type_of(GetParam()), "content-length: 4294967296\r\n") + "abc");
  EXPECT_EQ(o.error, "frame_too_long");
  EXPECT_LT(o.took, 5s);
}

TEST_P(rpc_hostile_server, garbage_for_a_reply_is_a_wrong_reply) {
  const lie_outcome o =
      against(GetParam(), head(content_type_of(GetParam()), "content-length: 7\r\n") + std::string("\xff\xfe\x00garb", 7));
  EXPECT_EQ(o.error, "wrong_reply");
  EXPECT_LT(o.took, 5s);
}

INSTANTIATE_TEST_SUITE_P(http1, rpc_hostile_server, ::testing::Values("connect-h1", "grpc-web-h1", "grpc-web-text-h1"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) if (c == '-') c = '_';
                           return name;
                         });

TEST(rpc_hostile_server_grpc_web, an_envelope_declaring_two_gigabytes_is_refused_at_its_header) {
  // A chunked body whose one envelope says 2 GiB and then nothing more comes.
  const std::string envelope_head("\x00\x7f\xff\xff\xff", 5);
  const lie_outcome o = against("grpc-web-h1", head("application/grpc-web+proto", "transfer-encoding: chunked\r\n") +
                                                   "5\r\n" + envelope_head + "\r\n");
  EXPECT_EQ(o.error, "frame_too_long");
  EXPECT_LT(o.took, 5s);
}

TEST(rpc_hostile_server_grpc_web, a_second_envelope_declaring_two_gigabytes_is_refused_though_trickled) {
  // One whole envelope, then one declaring 2 GiB, a byte a millisecond: each read judges only
  // what is new, and the second header is refused as soon as it is whole.
  const std::string first = std::string("\x00\x00\x00\x00\x03", 5) + "abc";
  const std::string second("\x00\x7f\xff\xff\xff", 5);
  const std::string body = first + second;
  char size[16];
  std::snprintf(size, sizeof size, "%zx", body.size());
  const lie_outcome o = against("grpc-web-h1",
                                head("application/grpc-web+proto", "transfer-encoding: chunked\r\n") + size +
                                    "\r\n" + body + "\r\n",
                                1ms);
  EXPECT_EQ(o.error, "frame_too_long");
  EXPECT_LT(o.took, 5s);
}

// gRPC-Web-text as Envoy's grpc_web filter sends it: each frame base64'd on its own, padded, so
// the body is a run of padded groups; and a body that is not base64 at all.
std::string text_reply(const std::string& body) {
  return head("application/grpc-web-text+proto", "content-length: " + std::to_string(body.size()) + "\r\n") + body;
}

TEST(rpc_hostile_server_grpc_web_text, frames_padded_one_by_one_decode_and_what_is_not_base64_is_refused) {
  echo::GreetReply reply;
  reply.set_greeting("hello, xy");  // 11 bytes of message, 16 with its envelope: "==" of padding
  const std::string message = reply.SerializeAsString();
  std::string frame(1, '\0');
  for (int shift = 24; shift >= 0; shift -= 8) frame.push_back(static_cast<char>(message.size() >> shift));
  frame += message;
  const std::string trailers_block = "grpc-status:0\r\n";
  std::string trailers(1, '\x80');
  for (int shift = 24; shift >= 0; shift -= 8) trailers.push_back(static_cast<char>(trailers_block.size() >> shift));
  trailers += trailers_block;
  std::string body;
  http::append_base64(body, frame);
  http::append_base64(body, trailers);
  ASSERT_EQ(body.find("=="), 22u) << "the first frame must end padded: " << body;
  EXPECT_EQ(against("grpc-web-text-h1", text_reply(body)).error, "ok");
  EXPECT_EQ(against("grpc-web-text-h1", text_reply(body.substr(0, body.size() - 1) + "!")).error, "wrong_reply");
  // Binary where text was asked for: not base64.
  std::string binary = frame + trailers;
  EXPECT_EQ(against("grpc-web-text-h1", text_reply(binary)).error, "wrong_reply");
}

TEST(rpc_hostile_server_connect, an_error_body_nested_thirty_thousand_deep_is_no_crash) {
  const std::string bomb(30000, '[');
  const lie_outcome o = against(
      "connect-h1", "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: " +
                        std::to_string(bomb.size()) + "\r\n\r\n" + bomb);
  EXPECT_EQ(o.error, "connect_unavailable");  // the code the status implies: the JSON is not read
  EXPECT_LT(o.took, 5s);
}

}  // namespace
}  // namespace wirebench
