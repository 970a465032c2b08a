// gRPC-Web (grpc/grpc doc/PROTOCOL-WEB.md): its wire pieces (content types, the trailers frame
// written and read as peers write it), base64 as gRPC-Web-text and binary metadata use it (a
// stream of separately padded chunks, either alphabet, bad input refused), and the gRPC server
// session answering gRPC-Web beside gRPC, driven with hand-made frames: the exact bytes of a unary
// call in binary and in text (a text request cut mid-group), a stream ended by its trailers frame,
// and refusals as Trailers-Only responses.
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "../../src/protocols/grpc_web/grpc_web_wire.hpp"
#include "../../src/protocols/http/base64.hpp"
#include "grpc_server_session_testing.hpp"

namespace wirebench::grpc_web {
namespace {

using namespace grpc_wire::server_session_testing;

std::string b64(std::string_view bytes) {
  std::string out;
  http::append_base64(out, bytes);
  return out;
}

TEST(base64, encodes_as_rfc_4648_in_both_alphabets_padded_or_not) {
  EXPECT_EQ(b64(""), "");
  EXPECT_EQ(b64("f"), "Zg==");
  EXPECT_EQ(b64("fo"), "Zm8=");
  EXPECT_EQ(b64("foo"), "Zm9v");
  EXPECT_EQ(b64("foobar"), "Zm9vYmFy");
  std::string url;
  http::append_base64(url, std::string_view("\xfb\xff", 2), /*url_safe=*/true, /*pad=*/false);
  EXPECT_EQ(url, "-_8");
}

TEST(base64, decodes_padded_chunks_one_after_another_and_refuses_what_is_not_base64) {
  std::string out;
  EXPECT_TRUE(http::decode_base64("Zg==Zm8=Zm9v", out));  // three chunks, each padded on its own
  EXPECT_EQ(out, "ffofoo");
  EXPECT_TRUE(http::decode_base64("-_8", out));  // URL-safe, unpadded
  EXPECT_EQ(out, std::string("\xfb\xff", 2));
  for (const char* bad : {"Z", "Zg=", "Z===", "=Zg=", "Zg==x", "Zm9v!", "Zm 9v"})
    EXPECT_FALSE(http::decode_base64(bad, out)) << bad;
  // Fed a character at a time, the same bytes.
  http::base64_decoder d;
  out.clear();
  for (const char c : std::string_view("Zm9vYmFyZg==")) ASSERT_TRUE(d.feed(std::string_view(&c, 1), out));
  EXPECT_TRUE(d.at_boundary());
  EXPECT_TRUE(d.finish(out));
  EXPECT_EQ(out, "foobarf");
}

TEST(grpc_web_wire, content_types_and_the_trailers_frame) {
  ASSERT_TRUE(parse_content_type("application/grpc-web"));
  EXPECT_FALSE(parse_content_type("application/grpc-web")->text);
  EXPECT_TRUE(parse_content_type("application/grpc-web-text+proto")->text);
  EXPECT_EQ(parse_content_type("application/grpc-web+json; charset=utf-8")->format, message_format::json);
  for (const char* other : {"application/grpc", "application/grpc-webx", "application/grpc-web+thrift2"})
    EXPECT_FALSE(parse_content_type(other)) << other;
  std::string frame;
  append_trailers_frame(frame, status_code::unavailable, "busy 100%");
  EXPECT_EQ(frame, std::string("\x80\x00\x00\x00\x2a", 5) + "grpc-status:14\r\ngrpc-message:busy 100%25\r\n");
  // As peers write it: any case, whitespace after the colon, other trailers beside.
  const auto read = parse_trailers_block("Grpc-Status: 7\r\nx-other: y\r\ngrpc-message:  no%20way \r\n");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->status, status_code::permission_denied);
  EXPECT_EQ(read->message, "no%20way");
  EXPECT_FALSE(parse_trailers_block("no colon here\r\n"));
  EXPECT_FALSE(parse_trailers_block("x: y\r\n")->status);
}

// --- the server session answering gRPC-Web

struct response {
  header_list headers;
  std::string body;
  int header_frames = 0;
  bool ended = false;
};
response respond(const std::string& input) {
  session s(small_messages_config());
  response r;
  for (const parsed_frame& f : on_stream(respond_to(s, input), 1)) {
    if (f.type == type_headers && ++r.header_frames == 1) r.headers = decode_headers(f.payload);
    if (f.type == type_data) r.body += f.payload;
    if (f.flags & end_stream) r.ended = true;
  }
  return r;
}

std::string trailers_ok() {
  std::string t;
  append_trailers_frame(t, status_code::ok, {});
  return t;
}

TEST(grpc_web_server, a_unary_greet_ends_its_body_with_the_trailers_frame) {
  const response r = respond(call(1, {.content_type = "application/grpc-web+proto"}, greet_message("ann")));
  EXPECT_EQ(r.headers, (header_list{{":status", "200"}, {"content-type", "application/grpc-web+proto"}}));
  pb::GreetReply reply;
  reply.set_greeting("hello, ann");
  EXPECT_EQ(r.body, message(reply.SerializeAsString()) + trailers_ok());
  EXPECT_EQ(r.header_frames, 1) << "no HTTP/2 trailers: the status is in the body";
  EXPECT_TRUE(r.ended);
}

TEST(grpc_web_server, text_requests_and_replies_are_base64_each_frame_padded) {
  // The request's base64 in two DATA frames cut inside a group of four characters.
  const std::string text = b64(greet_message("tx"));
  const std::string input = request(1, {.content_type = "application/grpc-web-text"}) +
                            frame(type_data, 0, 1, text.substr(0, 6)) +
                            frame(type_data, end_stream, 1, text.substr(6));
  const response r = respond(input);
  EXPECT_EQ(r.headers, (header_list{{":status", "200"}, {"content-type", "application/grpc-web-text+proto"}}));
  pb::GreetReply reply;
  reply.set_greeting("hello, tx");
  EXPECT_EQ(r.body, b64(message(reply.SerializeAsString())) + b64(trailers_ok()));
  const response broken = respond(call(1, {.content_type = "application/grpc-web-text"}, "AAAA!AAA"));
  EXPECT_EQ(broken.headers, (header_list{{":status", "200"}, {"content-type", "application/grpc-web-text+proto"},
                                         {"grpc-status", "13"}, {"grpc-message", "the request body cannot be decoded"}}));
}

TEST(grpc_web_server, a_stream_ends_with_its_trailers_frame_and_a_refusal_is_trailers_only) {
  const response expand = respond(call(1, {.path = "/wirebench.echo.Echo/Expand", .content_type = "application/grpc-web"},
                                       echo_message("a b")));
  pb::EchoResponse a, b;
  a.set_text("a");
  b.set_text("b");
  EXPECT_EQ(expand.body, message(a.SerializeAsString()) + message(b.SerializeAsString()) + trailers_ok());
  const response update = respond(call(1, {.path = "/wirebench.echo.Echo/Update", .content_type = "application/grpc-web"},
                                       echo_message("u") + message("\xff")));
  std::string failed;
  append_trailers_frame(failed, status_code::internal, "cannot parse EchoRequest");
  pb::EchoResponse u;
  u.set_text("u");
  EXPECT_EQ(update.body, message(u.SerializeAsString()) + failed);
  const response refused = respond(call(1, {.path = "/wirebench.echo.Echo/Nope", .content_type = "application/grpc-web"},
                                        greet_message("a")));
  EXPECT_EQ(refused.headers, (header_list{{":status", "200"}, {"content-type", "application/grpc-web+proto"},
                                          {"grpc-status", "12"}, {"grpc-message", "unknown method Nope"}}));
  EXPECT_TRUE(refused.body.empty());
  EXPECT_TRUE(refused.ended);
}

}  // namespace
}  // namespace wirebench::grpc_web
