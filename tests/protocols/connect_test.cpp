// The Connect protocol (connectrpc.com/docs/protocol): its wire pieces (codes and their HTTP
// statuses both ways, content types, Connect-Timeout-Ms, the error and end-of-stream JSON, a
// hostile peer's JSON refused), and the gRPC server session answering Connect beside gRPC,
// driven with hand-made frames and no socket: the exact bytes of unary calls in proto and JSON,
// streams ended by their EndStreamResponse, and each refusal with its status and JSON.
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "../../src/protocols/connect/connect_get.hpp"
#include "../../src/protocols/connect/connect_wire.hpp"
#include "../../src/protocols/grpc/grpc_gzip.hpp"
#include "grpc_server_session_testing.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error_condition.hpp"

namespace wirebench::connect {
namespace {

using namespace grpc_wire::server_session_testing;
using namespace std::chrono_literals;

TEST(connect_code, every_code_has_its_name_and_http_status_both_ways) {
  const std::vector<std::pair<std::string_view, int>> table = {
      {"canceled", 499},         {"unknown", 500},        {"invalid_argument", 400},
      {"deadline_exceeded", 504}, {"not_found", 404},     {"already_exists", 409},
      {"permission_denied", 403}, {"resource_exhausted", 429}, {"failed_precondition", 400},
      {"aborted", 409},          {"out_of_range", 400},   {"unimplemented", 501},
      {"internal", 500},         {"unavailable", 503},    {"data_loss", 500},
      {"unauthenticated", 401}};
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto code = static_cast<status_code>(i + 1);
    EXPECT_EQ(code_name(code), table[i].first);
    EXPECT_EQ(parse_code(table[i].first), code);
    EXPECT_EQ(http_status_of(code), table[i].second) << table[i].first;
    EXPECT_EQ(error_name(connect_error(code)), "connect_" + std::string(table[i].first));
  }
  EXPECT_EQ(parse_code("ok"), std::nullopt);
  EXPECT_EQ(parse_code("CANCELLED"), std::nullopt);
  // The spec's table for a status without a Connect error.
  EXPECT_EQ(code_of_http_status(400), status_code::internal);
  EXPECT_EQ(code_of_http_status(401), status_code::unauthenticated);
  EXPECT_EQ(code_of_http_status(403), status_code::permission_denied);
  EXPECT_EQ(code_of_http_status(404), status_code::unimplemented);
  for (int s : {429, 502, 503, 504}) EXPECT_EQ(code_of_http_status(s), status_code::unavailable) << s;
  for (int s : {405, 415, 500, 418}) EXPECT_EQ(code_of_http_status(s), status_code::unknown) << s;
}

TEST(connect_wire, content_types_name_the_shape_and_the_codec) {
  const auto unary_json = parse_content_type("application/json; charset=utf-8");
  ASSERT_TRUE(unary_json);
  EXPECT_FALSE(unary_json->streaming);
  EXPECT_EQ(unary_json->format, message_format::json);
  const auto stream_proto = parse_content_type("application/connect+proto");
  ASSERT_TRUE(stream_proto);
  EXPECT_TRUE(stream_proto->streaming);
  EXPECT_EQ(stream_proto->format, message_format::proto);
  for (const char* other : {"application/grpc", "application/protobuf", "application/connect+thrift",
                            "text/json", "application/jsonx", ""})
    EXPECT_FALSE(parse_content_type(other)) << other;
  EXPECT_EQ(content_type_of(true, message_format::json), "application/connect+json");
  EXPECT_EQ(content_type_of(false, message_format::proto), "application/proto");
}

TEST(connect_wire, a_timeout_is_one_to_ten_digits_of_milliseconds) {
  EXPECT_EQ(parse_timeout_ms("1"), 1ms);
  EXPECT_EQ(parse_timeout_ms("9999999999"), std::chrono::milliseconds(9'999'999'999));
  for (const char* bad : {"", "12345678901", "-1", "1.5", "1s", " 1"})
    EXPECT_EQ(parse_timeout_ms(bad), std::nullopt) << bad;
  EXPECT_EQ(format_timeout_ms(1500us), "2");  // rounded up: the server never sees less time
  EXPECT_EQ(format_timeout_ms(0ns), "1");
  EXPECT_EQ(format_timeout_ms(std::chrono::hours(24 * 365 * 200)), "9999999999");  // capped
}

TEST(connect_wire, errors_and_ends_are_written_and_read_back) {
  std::string error;
  append_error_json(error, status_code::unavailable, "over \"loaded\"\n");
  EXPECT_EQ(error, R"({"code":"unavailable","message":"over \"loaded\"\n"})");
  const auto back = parse_error_json(error);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->code, status_code::unavailable);
  EXPECT_EQ(back->message, "over \"loaded\"\n");
  std::string end;
  append_end_stream_json(end, status_code::ok, {});
  EXPECT_EQ(end, "{}");
  EXPECT_EQ(parse_end_stream_json(end)->code, status_code::ok);
  end.clear();
  append_end_stream_json(end, status_code::internal, "x");
  EXPECT_EQ(end, R"({"error":{"code":"internal","message":"x"}})");
  EXPECT_EQ(parse_end_stream_json(end)->code, status_code::internal);
  // Not UTF-8: replaced, so that the JSON stays valid.
  error.clear();
  append_error_json(error, status_code::internal, "a\xff");
  EXPECT_EQ(error, R"({"code":"internal","message":"a?"})");
  // An unknown code is unknown; a body that is not an error is none.
  EXPECT_EQ(parse_error_json(R"({"code":"teapot"})")->code, status_code::unknown);
  for (const char* none : {"", "{}", "[]", R"({"code":null})", "not json", R"({"error":null})"})
    EXPECT_FALSE(parse_error_json(none)) << none;
  EXPECT_FALSE(parse_end_stream_json(R"({"error":{}})"));
}

TEST(connect_wire, a_hostile_peers_json_is_refused_before_it_is_parsed) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_FALSE(parse_error_json(deep));  // nlohmann's parser would recurse 100 000 deep
  EXPECT_FALSE(parse_end_stream_json(R"({"error":)" + deep + "}"));
  const std::string huge = R"({"code":"internal","message":")" + std::string(100000, 'x') + "\"}";
  EXPECT_FALSE(parse_error_json(huge));
}

// --- the server session answering Connect

header_list json_error_headers(std::string_view status) {
  return {{":status", std::string(status)}, {"content-type", "application/json"}};
}

// The frames of a response on stream 1 to `input`: its headers, and its body joined.
struct response {
  header_list headers;
  std::string body;
  bool ended = false;
};
response respond(const std::string& input) {
  session s(small_messages_config());
  response r;
  for (const parsed_frame& f : on_stream(respond_to(s, input), 1)) {
    if (f.type == type_headers && r.headers.empty()) r.headers = decode_headers(f.payload);
    if (f.type == type_data) r.body += f.payload;
    if (f.flags & end_stream) r.ended = true;
  }
  return r;
}

std::string greet_bytes(const std::string& name) {
  pb::GreetRequest r;
  r.set_name(name);
  return r.SerializeAsString();
}
std::string echo_bytes(const std::string& text) {
  pb::EchoRequest r;
  r.set_text(text);
  return r.SerializeAsString();
}
std::string envelope(std::string_view message, std::uint8_t flags = 0) {
  std::string out;
  append_envelope(out, flags, message);
  return out;
}

TEST(connect_server, a_unary_greet_in_proto_is_the_bare_reply_with_200) {
  const response r = respond(call(1, {.content_type = "application/proto",
                                      .extra_name = "connect-protocol-version", .extra_value = "1"},
                                  greet_bytes("ann")));
  EXPECT_EQ(r.headers, (header_list{{":status", "200"}, {"content-type", "application/proto"}}));
  pb::GreetReply reply;
  reply.set_greeting("hello, ann");
  EXPECT_EQ(r.body, reply.SerializeAsString());  // bare: no envelope, no trailers
  EXPECT_TRUE(r.ended);
}

TEST(connect_server, a_unary_greet_in_json_is_json) {
  const response r = respond(call(1, {.content_type = "application/json"}, R"({"name": "bo", "other": 1})"));
  EXPECT_EQ(r.headers, (header_list{{":status", "200"}, {"content-type", "application/json"}}));
  EXPECT_EQ(r.body, R"({"greeting":"hello, bo"})");
}

TEST(connect_server, get_is_answered_unary_and_a_gzip_body_inflated) {
  std::string zipped;
  grpc_wire::gzip(as_bytes(std::string_view(echo_bytes("zip"))), zipped);
  const response r = respond(call(1, {.path = "/wirebench.echo.Echo/Get", .content_type = "application/proto",
                                      .extra_name = "content-encoding", .extra_value = "gzip"},
                                  zipped));
  pb::EchoResponse out;
  ASSERT_TRUE(out.ParseFromString(r.body)) << r.body;
  EXPECT_EQ(out.text(), "zip");
}

TEST(connect_get, the_query_gives_the_codec_and_the_message) {
  EXPECT_TRUE(is_get_query("/p.S/M?encoding=json&message=%7B%7D"));
  EXPECT_FALSE(is_get_query("/p.S/M?encoding=json"));
  EXPECT_FALSE(is_get_query("/p.S/M"));
  get_query q;
  int status = -1;
  std::string why;
  ASSERT_EQ(parse_get_query("/p.S/M?connect=v1&encoding=json&message=%7B%22a%22%3A%22b+c%22%7D", q, status, why),
            status_code::ok);
  EXPECT_EQ(q.format, grpc_wire::message_format::json);
  EXPECT_EQ(q.message, R"({"a":"b c"})");
  EXPECT_FALSE(q.gzip);
  // Either base64 alphabet, padded or not; gzip named by compression=.
  ASSERT_EQ(parse_get_query("/p.S/M?message=_-8&base64=1&encoding=proto&compression=gzip", q, status, why),
            status_code::ok);
  EXPECT_EQ(q.message, "\xff\xef");
  EXPECT_TRUE(q.gzip);
  ASSERT_EQ(parse_get_query("/p.S/M?encoding=proto&base64=1&message=%2F%2B8%3D", q, status, why), status_code::ok);
  EXPECT_EQ(q.message, "\xff\xef");
  // Refusals: the codec or compression 415, the rest 400.
  EXPECT_EQ(parse_get_query("/p.S/M?encoding=xml&message=", q, status, why), status_code::unimplemented);
  EXPECT_EQ(status, 415);
  EXPECT_EQ(parse_get_query("/p.S/M?encoding=proto&compression=br&message=", q, status, why),
            status_code::unimplemented);
  EXPECT_EQ(why, "compression br is not supported; supported: gzip, identity");
  EXPECT_EQ(parse_get_query("/p.S/M?encoding=proto&message=%4", q, status, why), status_code::invalid_argument);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(why, "the message is not percent-encoded");
  EXPECT_EQ(parse_get_query("/p.S/M?encoding=proto&base64=1&message=a!", q, status, why),
            status_code::invalid_argument);
  EXPECT_EQ(parse_get_query("/p.S/M?encoding=proto", q, status, why), status_code::invalid_argument);
  EXPECT_EQ(why, "a GET names its message");
}

TEST(connect_server, a_get_of_a_method_without_side_effects_is_answered_as_a_post) {
  // EchoRequest{text: "hi"} is 0a 02 68 69: CgJoaQ.
  const response r =
      respond(call(1, {.path = "/echo.v1.Echo/Get?encoding=proto&base64=1&message=CgJoaQ", .content_type = "",
                       .post = false},
                   ""));
  EXPECT_EQ(r.headers, (header_list{{":status", "200"}, {"content-type", "application/proto"}}));
  EXPECT_EQ(r.body, echo_bytes("hi"));
  const response greet = respond(call(
      1, {.path = "/wirebench.echo.Echo/Greet?encoding=json&message=%7B%22name%22%3A%22g%22%7D", .content_type = "",
          .post = false},
      ""));
  EXPECT_EQ(greet.body, R"({"greeting":"hello, g"})");
  // A stream, or a method with side effects: 405.
  const response collect =
      respond(call(1, {.path = "/echo.v1.Echo/Collect?encoding=json&message=%7B%7D", .content_type = "", .post = false}, ""));
  EXPECT_EQ(collect.headers, json_error_headers("405"));
  EXPECT_EQ(collect.body, R"({"code":"unimplemented","message":"a streaming method is not called with GET"})");
  const response stream = respond(
      call(1, {.path = "/wirebench.echo.Echo/GreetStream?encoding=json&message=%7B%7D", .content_type = "", .post = false},
           ""));
  EXPECT_EQ(stream.headers, json_error_headers("405"));
}

TEST(connect_server, refusals_are_the_codes_http_status_with_the_json_error) {
  struct refusal {
    request_headers headers;
    std::string body;
    std::string_view status, json;
  };
  const std::vector<refusal> cases = {
      {{.path = "/wirebench.echo.Echo/Nope", .content_type = "application/proto"}, greet_bytes("a"), "501",
       R"({"code":"unimplemented","message":"unknown method Nope"})"},
      {{.content_type = "application/proto", .extra_name = "connect-timeout-ms", .extra_value = "12345678901"},
       greet_bytes("a"), "400", R"({"code":"invalid_argument","message":"connect-timeout-ms must be 1 to 10 digits"})"},
      {{.content_type = "application/proto", .extra_name = "connect-protocol-version", .extra_value = "2"},
       greet_bytes("a"), "400", R"({"code":"invalid_argument","message":"connect-protocol-version must be 1"})"},
      {{.content_type = "application/proto", .extra_name = "content-encoding", .extra_value = "br"}, greet_bytes("a"),
       "501", R"({"code":"unimplemented","message":"content encoding br is not supported; supported: gzip, identity"})"},
      {{.content_type = "application/json"}, "{not json", "500",
       R"({"code":"internal","message":"cannot parse GreetRequest"})"},
      {{.content_type = "application/proto", .post = false}, "", "405",
       R"({"code":"unimplemented","message":"Connect calls are POST"})"},
      // A unary content type on a streaming method: 415, as connect-go answers.
      {{.path = "/wirebench.echo.Echo/Expand", .content_type = "application/proto"}, echo_bytes("a"), "415",
       R"({"code":"unknown","message":"a streaming method takes application/connect+proto or +json"})"},
  };
  for (const refusal& c : cases) {
    const response r = respond(call(1, c.headers, c.body));
    EXPECT_EQ(r.headers, json_error_headers(c.status)) << c.json;
    EXPECT_EQ(r.body, c.json);
    EXPECT_TRUE(r.ended);
  }
}

TEST(connect_server, a_stream_is_enveloped_and_ends_with_its_end_stream_message) {
  const response r = respond(call(1, {.path = "/wirebench.echo.Echo/Expand", .content_type = "application/connect+json"},
                                  envelope(R"({"text":"a bb"})")));
  EXPECT_EQ(r.headers, (header_list{{":status", "200"}, {"content-type", "application/connect+json"}}));
  EXPECT_EQ(r.body, envelope(R"({"text":"a"})") + envelope(R"({"text":"bb"})") + envelope("{}", flag_end_stream));
}

TEST(connect_server, a_streams_error_is_200_with_the_error_in_its_end) {
  const response collect = respond(call(1, {.path = "/wirebench.echo.Echo/Collect", .content_type = "application/connect+proto"},
                                        envelope(echo_bytes("x")) + envelope("\xff", 0)));
  EXPECT_EQ(collect.headers, (header_list{{":status", "200"}, {"content-type", "application/connect+proto"}}));
  EXPECT_EQ(collect.body, envelope(R"({"error":{"code":"internal","message":"cannot parse EchoRequest"}})",
                                   flag_end_stream));
  // Update, a bidirectional stream: each message answered as it comes, then the end.
  const response update = respond(call(1, {.path = "/wirebench.echo.Echo/Update", .content_type = "application/connect+proto"},
                                       envelope(echo_bytes("u1")) + envelope(echo_bytes("u2"))));
  pb::EchoResponse one, two;
  one.set_text("u1");
  two.set_text("u2");
  EXPECT_EQ(update.body, envelope(one.SerializeAsString()) + envelope(two.SerializeAsString()) +
                             envelope("{}", flag_end_stream));
  EXPECT_TRUE(update.ended);
}

TEST(connect_server, grpc_on_the_same_connection_is_still_grpc) {
  session s(small_messages_config());
  const auto frames = respond_to(s, call(1, {.content_type = "application/proto"}, greet_bytes("c")) +
                                        call(3, {}, greet_message("g")));
  const auto connect = on_stream(frames, 1), grpc = on_stream(frames, 3);
  ASSERT_FALSE(connect.empty());
  ASSERT_EQ(grpc.size(), 3u);
  EXPECT_EQ(decode_headers(grpc[2].payload), (header_list{{"grpc-status", "0"}}));
  EXPECT_EQ(s.take_answered(), 2u);
}

}  // namespace
}  // namespace wirebench::connect
