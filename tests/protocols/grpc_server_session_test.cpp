// The gRPC server session (a server codec on the HTTP/2 core) alone, driven with hand-made frames
// and no socket: the exact frames of a Greet call, Echo's fixtures, and every refusal the wire
// spec (doc/PROTOCOL-HTTP2.md) names, each as its Trailers-Only response.
#include <chrono>
#include <string>
#include <string_view>
#include <thread>

#include <gtest/gtest.h>

#include "../../src/protocols/grpc/grpc_gzip.hpp"
#include "grpc_server_session_testing.hpp"
#include "wirebench/codec/bytes.hpp"

namespace wirebench::grpc_wire {
namespace {

using namespace server_session_testing;

// The one HEADERS frame of a Trailers-Only response on stream 1, decoded.
header_list trailers_only(session& s, const std::string& input) {
  const auto mine = on_stream(respond_to(s, input), 1);
  EXPECT_EQ(mine.size(), 1u);
  if (mine.empty()) return {};
  EXPECT_EQ(mine[0].type, type_headers);
  EXPECT_EQ(mine[0].flags & end_stream, end_stream) << "Trailers-Only ends the stream";
  return decode_headers(mine[0].payload);
}

header_list grpc_error(std::string_view status, std::string_view message, std::string_view http = "200") {
  header_list h{{":status", std::string(http)}, {"content-type", "application/grpc"},
                {"grpc-status", std::string(status)}};
  if (!message.empty()) h.emplace_back("grpc-message", std::string(message));
  return h;
}

TEST(grpc_server_session, a_greet_call_is_headers_one_message_then_trailers) {
  session s(small_messages_config());
  const auto mine = on_stream(respond_to(s, call(1, {}, greet_message("ann"))), 1);
  ASSERT_EQ(mine.size(), 3u);
  EXPECT_EQ(mine[0].type, type_headers);
  EXPECT_EQ(mine[0].flags & end_stream, 0);
  EXPECT_EQ(decode_headers(mine[0].payload),
            (header_list{{":status", "200"}, {"content-type", "application/grpc"}}));
  EXPECT_EQ(mine[1].type, type_data);
  EXPECT_EQ(mine[1].flags & end_stream, 0);
  pb::GreetReply reply;
  reply.set_greeting("hello, ann");
  EXPECT_EQ(mine[1].payload, message(reply.SerializeAsString()));
  EXPECT_EQ(mine[2].type, type_headers);
  EXPECT_EQ(mine[2].flags & end_stream, end_stream);
  EXPECT_EQ(decode_headers(mine[2].payload), (header_list{{"grpc-status", "0"}}));
  EXPECT_EQ(s.take_answered(), 1u);
}

TEST(grpc_server_session, calls_on_many_streams_are_each_answered) {
  session s(small_messages_config());
  const auto frames = respond_to(s, call(1, {}, greet_message("a")) + call(3, {}, greet_message("b")) +
                                      call(5, {}, greet_message("c")));
  for (std::uint32_t id : {1u, 3u, 5u}) EXPECT_EQ(on_stream(frames, id).size(), 3u) << id;
  EXPECT_EQ(s.take_answered(), 3u);
}

TEST(grpc_server_session, echo_get_expand_and_collect_are_answered_by_the_session) {
  auto texts = [](const std::vector<parsed_frame>& mine) {
    std::vector<std::string> out;
    for (const parsed_frame& f : mine) {
      if (f.type != type_data) continue;
      std::string_view rest = f.payload;
      while (rest.size() >= 5) {
        const std::uint32_t n = get32(rest.substr(1));
        pb::EchoResponse r;
        EXPECT_TRUE(r.ParseFromArray(rest.data() + 5, static_cast<int>(n)));
        out.push_back(r.text());
        rest.remove_prefix(5 + n);
      }
    }
    return out;
  };
  {
    session s(small_messages_config());
    const auto mine = on_stream(respond_to(s, call(1, {.path = "/wirebench.echo.Echo/Get"}, echo_message("hi"))), 1);
    EXPECT_EQ(texts(mine), (std::vector<std::string>{"hi"}));
    EXPECT_EQ(decode_headers(mine.back().payload), (header_list{{"grpc-status", "0"}}));
  }
  {
    session s(small_messages_config());
    const auto mine = on_stream(
        respond_to(s, call(1, {.path = "/wirebench.echo.Echo/Expand"}, echo_message("a bb  c"))), 1);
    EXPECT_EQ(texts(mine), (std::vector<std::string>{"a", "bb", "c"}));
  }
  {
    session s(small_messages_config());
    const auto mine = on_stream(respond_to(s, call(1, {.path = "/wirebench.echo.Echo/Collect"},
                                                 echo_message("x") + echo_message("y") + echo_message("z"))),
                                1);
    EXPECT_EQ(texts(mine), (std::vector<std::string>{"xyz"}));
  }
}

TEST(grpc_server_session, an_unknown_method_is_unimplemented_percent_encoded) {
  session s(small_messages_config());
  EXPECT_EQ(trailers_only(s, call(1, {.path = "/wirebench.echo.Echo/N\xc3\xb6"}, greet_message("a"))),
            grpc_error("12", "unknown method N%C3%B6"));
  session other(small_messages_config());
  EXPECT_EQ(trailers_only(other, call(1, {.path = "/other.Svc/Greet"}, greet_message("a"))),
            grpc_error("12", "unknown service"));
  EXPECT_EQ(s.take_answered(), 1u);
}

TEST(grpc_server_session, a_content_type_that_is_not_grpc_is_http_415_with_a_text_body) {
  session s(small_messages_config());
  // (application/json is Connect's now, a dialect the server answers: connect_test.cpp.)
  const auto mine = on_stream(respond_to(s, call(1, {.content_type = "text/plain"}, greet_message("a"))), 1);
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(decode_headers(mine[0].payload),
            (header_list{{":status", "415"}, {"content-type", "text/plain; charset=utf-8"},
                         {"grpc-status", "13"}, {"grpc-message", "content-type is not application/grpc"}}));
  EXPECT_EQ(mine[1].type, type_data);
  EXPECT_EQ(mine[1].flags & end_stream, end_stream);
  EXPECT_EQ(mine[1].payload, "content-type is not application/grpc\n");
  session proto(small_messages_config());  // +proto and parameters are gRPC's
  EXPECT_EQ(on_stream(respond_to(proto, call(1, {.content_type = "application/grpc+proto"}, greet_message("a"))), 1).size(), 3u);
}

TEST(grpc_server_session, a_get_is_http_405) {
  session s(small_messages_config());
  EXPECT_EQ(trailers_only(s, call(1, {.post = false}, greet_message("a"))),
            grpc_error("12", "gRPC is POST only", "405"));
}

TEST(grpc_server_session, a_bad_flag_a_compressed_message_and_a_bad_message_are_internal) {
  session flag(small_messages_config());
  EXPECT_EQ(trailers_only(flag, call(1, {}, message("\x0a\x01x", 2))),
            grpc_error("13", "malformed message prefix"));
  session compressed(small_messages_config());
  EXPECT_EQ(trailers_only(compressed, call(1, {}, message("\x12\x01x", 1))),
            grpc_error("13", "compressed message without grpc-encoding"));
  session garbage(small_messages_config());
  EXPECT_EQ(trailers_only(garbage, call(1, {}, message("\xff\xff\xff"))),
            grpc_error("13", "cannot parse GreetRequest"));
  session two(small_messages_config());
  EXPECT_EQ(trailers_only(two, call(1, {}, greet_message("a") + greet_message("b"))),
            grpc_error("13", "a unary call takes exactly one message"));
  session cut(small_messages_config());
  EXPECT_EQ(trailers_only(cut, call(1, {}, greet_message("abc").substr(0, 6))),
            grpc_error("13", "the request ends inside a message"));
  session none(small_messages_config());
  EXPECT_EQ(trailers_only(none, call(1, {}, "")),
            grpc_error("13", "a unary call takes exactly one message"));
}

TEST(grpc_server_session, a_name_that_is_not_utf8_is_internal_and_logs_nothing) {
  session s(small_messages_config());
  pb::GreetRequest r;
  r.set_name("ok");
  std::string bytes = r.SerializeAsString();
  bytes.back() = '\xff';  // the name's last byte: no longer UTF-8, which proto3 strings must be
  ::testing::internal::CaptureStderr();
  const header_list answer = trailers_only(s, call(1, {}, message(bytes)));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << "protobuf's complaint reaches stderr";
  EXPECT_EQ(answer, grpc_error("13", "cannot parse GreetRequest"));
}

TEST(grpc_server_session, an_encoding_it_lacks_is_unimplemented_naming_those_it_has) {
  session s(small_messages_config());
  header_list expected = grpc_error("12", "grpc-encoding not supported: snappy");
  expected.emplace_back("grpc-accept-encoding", "identity,gzip");
  EXPECT_EQ(trailers_only(s, call(1, {.extra_name = "grpc-encoding", .extra_value = "snappy"},
                                  message("x", 1))),
            expected);
}

std::string gzipped(const std::string& plain) {
  std::string out;
  gzip(as_bytes(std::string_view(plain)), out);
  return out;
}

TEST(grpc_server_session, a_gzip_message_is_inflated_and_a_bad_one_refused) {
  const request_headers gzip_encoded{.extra_name = "grpc-encoding", .extra_value = "gzip"};
  pb::GreetRequest r;
  r.set_name("zip");
  {
    session s(small_messages_config());
    const auto mine = on_stream(respond_to(s, call(1, gzip_encoded, message(gzipped(r.SerializeAsString()), 1))), 1);
    ASSERT_EQ(mine.size(), 3u);
    pb::GreetReply reply;
    reply.set_greeting("hello, zip");
    EXPECT_EQ(mine[1].payload, message(reply.SerializeAsString())) << "replies are not compressed";
  }
  {
    session s(small_messages_config());  // flag 0 under grpc-encoding gzip: a message sent as it is
    EXPECT_EQ(on_stream(respond_to(s, call(1, gzip_encoded, greet_message("plain"))), 1).size(), 3u);
  }
  session garbage(small_messages_config());
  EXPECT_EQ(trailers_only(garbage, call(1, gzip_encoded, message("not gzip", 1))),
            grpc_error("13", "cannot inflate the gzip message"));
  session bomb(small_messages_config());  // 64 KiB of zeros inflate past the 1 KiB limit from a few dozen bytes
  EXPECT_EQ(trailers_only(bomb, call(1, gzip_encoded, message(gzipped(std::string(65536, '\0')), 1))),
            grpc_error("8", "message larger than the receive limit once inflated"));
}

TEST(grpc_server_session, a_message_over_the_limit_is_resource_exhausted_then_reset) {
  session s(small_messages_config());
  const auto mine = on_stream(respond_to(s, call(1, {}, greet_message(std::string(2000, 'x')))), 1);
  ASSERT_GE(mine.size(), 1u);
  EXPECT_EQ(decode_headers(mine[0].payload), grpc_error("8", "message larger than the receive limit"));
  EXPECT_EQ(s.take_answered(), 1u);
}

TEST(grpc_server_session, a_malformed_timeout_is_internal) {
  session s(small_messages_config());
  EXPECT_EQ(trailers_only(s, call(1, {.extra_name = "grpc-timeout", .extra_value = "5x"}, greet_message("a"))),
            grpc_error("13", "malformed grpc-timeout"));
}

TEST(grpc_server_session, a_reply_after_the_deadline_is_deadline_exceeded) {
  session s(small_messages_config());
  s.hold_calls();
  EXPECT_FALSE(s.read(opening() + call(1, {.extra_name = "grpc-timeout", .extra_value = "1u"},
                                       greet_message("late"))));
  std::this_thread::sleep_for(std::chrono::milliseconds(2));  // past the 1 µs deadline
  s.answer_held();
  std::string out;
  EXPECT_FALSE(s.output(out));
  const auto mine = on_stream(frames_of(out), 1);
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(decode_headers(mine[0].payload), grpc_error("4", "deadline exceeded"));
}

// The host asks for the next deadline and expires what is past it: the call is answered
// DEADLINE_EXCEEDED then, and its reply, when it comes, is dropped.
TEST(grpc_server_session, an_expired_call_is_answered_at_its_deadline_and_its_reply_dropped) {
  session s(small_messages_config());
  s.hold_calls();
  EXPECT_EQ(s.next_deadline(), std::chrono::steady_clock::time_point::max());
  EXPECT_FALSE(s.read(opening() + call(1, {.extra_name = "grpc-timeout", .extra_value = "5S"},
                                       greet_message("slow")) +
                      call(3, {}, greet_message("no deadline"))));
  const auto deadline = s.next_deadline();
  ASSERT_NE(deadline, std::chrono::steady_clock::time_point::max());
  gather_queue unused;
  s.expire(deadline - std::chrono::milliseconds(1), unused);  // not yet
  std::string out;
  ASSERT_FALSE(s.output(out));
  EXPECT_TRUE(on_stream(frames_of(out), 1).empty());
  s.expire(deadline, unused);
  EXPECT_EQ(s.next_deadline(), std::chrono::steady_clock::time_point::max());
  s.answer_held();  // the late reply, and the other call's
  out.clear();
  ASSERT_FALSE(s.output(out));
  const auto frames = frames_of(out);
  const auto mine = on_stream(frames, 1);
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(decode_headers(mine[0].payload), grpc_error("4", "deadline exceeded"));
  EXPECT_EQ(on_stream(frames, 3).size(), 3u);  // headers, reply, trailers
}

TEST(grpc_server_session, a_reply_within_the_deadline_is_ok) {
  // The longest timeout the spec allows (about 11 400 years) is past the clock: no deadline.
  for (const std::string_view timeout : {"10S", "99999999H"}) {
    session s(small_messages_config());
    const auto mine = on_stream(
        respond_to(s, call(1, {.extra_name = "grpc-timeout", .extra_value = timeout}, greet_message("a"))), 1);
    ASSERT_EQ(mine.size(), 3u) << timeout;
    EXPECT_EQ(decode_headers(mine[2].payload), (header_list{{"grpc-status", "0"}})) << timeout;
  }
}

}  // namespace
}  // namespace wirebench::grpc_wire
