// The gRPC server session's bidirectional streams (grpc_server_streams.cpp), driven with
// hand-made frames and no socket: calls handed out as their messages arrive and answered in any
// order by id, a batch's replies in one message, Update's echoes, the stream's end and its
// failures, and the window held back from a client that does not read.
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "grpc_server_session_testing.hpp"

namespace wirebench::grpc_wire {
namespace {

using namespace server_session_testing;

constexpr std::string_view greet_stream = "/wirebench.echo.Echo/GreetStream";

std::string data(std::uint32_t stream_id, std::string_view bytes, bool last = false) {
  return frame(type_data, last ? end_stream : 0, stream_id, bytes);
}

// Every message in the DATA frames of `frames`, as (id, greeting) from GreetReply.
std::vector<std::pair<std::uint64_t, std::string>> greetings(const std::vector<parsed_frame>& frames) {
  std::string body;
  for (const parsed_frame& f : frames)
    if (f.type == type_data) body += f.payload;
  std::vector<std::pair<std::uint64_t, std::string>> out;
  for (std::string_view rest = body; rest.size() >= 5;) {
    const std::uint32_t n = get32(rest.substr(1));
    pb::GreetReply r;
    EXPECT_TRUE(r.ParseFromArray(rest.data() + 5, static_cast<int>(n)));
    out.emplace_back(r.id(), r.greeting());
    rest.remove_prefix(5 + n);
  }
  return out;
}

TEST(grpc_server_streams, each_greet_stream_message_is_a_call_answered_by_id_in_any_order) {
  session s(small_messages_config());
  s.hold_calls();
  auto mine = on_stream(respond_to(s, request(1, {.path = greet_stream}) +
                                          data(1, greet_message("a", 7) + greet_message("b", 9))),
                        1);
  EXPECT_EQ(s.take_answered(), 2u);
  ASSERT_EQ(mine.size(), 1u) << "the response's headers, before any reply";
  EXPECT_EQ(decode_headers(mine[0].payload),
            (header_list{{":status", "200"}, {"content-type", "application/grpc"}}));
  s.answer_held(/*newest_first=*/true);
  std::string out;
  ASSERT_FALSE(s.output(out));
  mine = on_stream(frames_of(out), 1);
  EXPECT_EQ(greetings(mine), (std::vector<std::pair<std::uint64_t, std::string>>{
                                 {9, "hello, b"}, {7, "hello, a"}}));
  for (const parsed_frame& f : mine) EXPECT_EQ(f.flags & end_stream, 0) << "the stream stays open";

  // The client ends its side with a last call: its reply, then grpc-status 0.
  ASSERT_FALSE(s.read(data(1, greet_message("c", 11), /*last=*/true)));
  s.answer_held();
  out.clear();
  ASSERT_FALSE(s.output(out));
  mine = on_stream(frames_of(out), 1);
  ASSERT_FALSE(mine.empty());
  EXPECT_EQ(greetings(mine), (std::vector<std::pair<std::uint64_t, std::string>>{{11, "hello, c"}}));
  EXPECT_EQ(mine.back().type, type_headers);
  EXPECT_EQ(mine.back().flags & end_stream, end_stream);
  EXPECT_EQ(decode_headers(mine.back().payload), (header_list{{"grpc-status", "0"}}));
}

TEST(grpc_server_streams, a_message_split_across_frames_is_one_call) {
  session s(small_messages_config());
  const std::string m = greet_message("split", 3);
  const auto mine = on_stream(respond_to(s, request(1, {.path = greet_stream}) + data(1, m.substr(0, 3)) +
                                                data(1, m.substr(3, 4)) + data(1, m.substr(7), true)),
                              1);
  EXPECT_EQ(greetings(mine), (std::vector<std::pair<std::uint64_t, std::string>>{{3, "hello, split"}}));
  EXPECT_EQ(decode_headers(mine.back().payload), (header_list{{"grpc-status", "0"}}));
}

TEST(grpc_server_streams, a_batch_stream_answers_one_turns_replies_in_one_message) {
  session s(small_messages_config());
  pb::GreetBatch batch;
  for (const auto& [id, name] : {std::pair{1, "x"}, {2, "y"}, {3, "z"}}) {
    auto* r = batch.add_requests();
    r->set_id(id);
    r->set_name(name);
  }
  const auto mine = on_stream(respond_to(s, request(1, {.path = "/wirebench.echo.Echo/GreetBatchStream"}) +
                                                data(1, message(batch.SerializeAsString()), true)),
                              1);
  EXPECT_EQ(s.take_answered(), 3u);
  ASSERT_EQ(mine.size(), 3u);  // HEADERS, one DATA, trailers
  ASSERT_EQ(mine[1].type, type_data);
  const std::string_view payload = mine[1].payload;
  ASSERT_EQ(get32(payload.substr(1)) + 5, payload.size()) << "one message";
  pb::GreetReplyBatch replies;
  ASSERT_TRUE(replies.ParseFromArray(payload.data() + 5, static_cast<int>(payload.size() - 5)));
  ASSERT_EQ(replies.replies_size(), 3);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(replies.replies(i).id(), static_cast<std::uint64_t>(i + 1));
    EXPECT_EQ(replies.replies(i).greeting(), std::string("hello, ") + "xyz"[i]);
  }
  EXPECT_EQ(decode_headers(mine[2].payload), (header_list{{"grpc-status", "0"}}));
}

TEST(grpc_server_streams, update_echoes_each_message_as_it_comes) {
  session s(small_messages_config());
  const auto mine = on_stream(respond_to(s, request(1, {.path = "/wirebench.echo.Echo/Update"}) +
                                                data(1, echo_message("one") + echo_message("two"))),
                              1);
  EXPECT_EQ(s.take_answered(), 2u);
  ASSERT_EQ(mine.size(), 2u);  // HEADERS, then both echoes before the client has ended
  pb::EchoResponse first, second;
  const std::string_view payload = mine[1].payload;
  ASSERT_TRUE(first.ParseFromArray(payload.data() + 5, static_cast<int>(get32(payload.substr(1)))));
  const std::string_view rest = payload.substr(5 + get32(payload.substr(1)));
  ASSERT_TRUE(second.ParseFromArray(rest.data() + 5, static_cast<int>(get32(rest.substr(1)))));
  EXPECT_EQ(first.text(), "one");
  EXPECT_EQ(second.text(), "two");
}

TEST(grpc_server_streams, a_bad_message_ends_the_stream_with_its_status_and_a_reset) {
  session s(small_messages_config());
  const auto mine = on_stream(respond_to(s, request(1, {.path = greet_stream}) +
                                                data(1, greet_message("ok", 1) + message("x", 2))),
                              1);
  // The call before the bad message was taken, but the stream had failed by the time of its
  // reply (both messages came in one read): the reply is dropped, as after a client's reset.
  EXPECT_EQ(s.take_answered(), 1u);
  ASSERT_EQ(mine.size(), 3u);  // HEADERS, the trailers, RST_STREAM(NO_ERROR)
  EXPECT_EQ(decode_headers(mine[1].payload),
            (header_list{{"grpc-status", "13"}, {"grpc-message", "malformed message prefix"}}));
  EXPECT_EQ(mine[1].flags & end_stream, end_stream);
  EXPECT_EQ(mine[2].type, 3);  // RST_STREAM: the client was still sending
  EXPECT_EQ(get32(mine[2].payload), 0u);
}

TEST(grpc_server_streams, a_stream_ending_inside_a_message_is_internal) {
  session s(small_messages_config());
  const auto mine = on_stream(respond_to(s, request(1, {.path = greet_stream}) +
                                                data(1, greet_message("cut").substr(0, 4), true)),
                              1);
  ASSERT_FALSE(mine.empty());
  EXPECT_EQ(decode_headers(mine.back().payload),
            (header_list{{"grpc-status", "13"}, {"grpc-message", "the request ends inside a message"}}));
}

TEST(grpc_server_streams, a_reply_that_fails_ends_the_stream_and_later_replies_are_dropped) {
  session s(small_messages_config());
  s.hold_calls();
  ASSERT_FALSE(s.read(opening() + request(1, {.path = greet_stream}) +
                      data(1, greet_message("a", 1) + greet_message("b", 2))));
  gather_queue unused;
  s.encode_reply(grpc_server_session::first_slot_key + 0, false, "no such name", unused);
  s.answer_held();  // both: the first's slot is free again, the second's stream has failed
  std::string out;
  ASSERT_FALSE(s.output(out));
  const auto mine = on_stream(frames_of(out), 1);
  EXPECT_TRUE(greetings(mine).empty());
  ASSERT_FALSE(mine.empty());
  EXPECT_EQ(decode_headers(mine[1].payload),
            (header_list{{"grpc-status", "2"}, {"grpc-message", "no such name"}}));
}

// A graceful stop's last read: the server reads nothing after it, so an open stream ends as soon
// as its calls are answered (grpc-status 0, then RST_STREAM(NO_ERROR) to a client still sending),
// not when the grace runs out.
TEST(grpc_server_streams, a_graceful_stop_ends_open_streams_once_their_calls_are_answered) {
  session s(small_messages_config());
  s.hold_calls();
  ASSERT_FALSE(s.read(opening() + request(1, {.path = greet_stream}) + data(1, greet_message("a", 4))));
  gather_queue unused;
  s.going_away(unused);
  s.last_read(unused);
  std::string out;
  ASSERT_FALSE(s.output(out));
  for (const parsed_frame& f : on_stream(frames_of(out), 1))
    EXPECT_EQ(f.flags & end_stream, 0) << "a call is still out";
  s.answer_held();
  out.clear();
  ASSERT_FALSE(s.output(out));
  const auto mine = on_stream(frames_of(out), 1);
  EXPECT_EQ(greetings(mine), (std::vector<std::pair<std::uint64_t, std::string>>{{4, "hello, a"}}));
  ASSERT_GE(mine.size(), 2u);
  EXPECT_EQ(decode_headers(mine[mine.size() - 2].payload), (header_list{{"grpc-status", "0"}}));
  EXPECT_EQ(mine.back().type, 3);  // RST_STREAM(NO_ERROR)
  EXPECT_EQ(get32(mine.back().payload), 0u);
}

// The client grants no window for replies (SETTINGS_INITIAL_WINDOW_SIZE 0) and keeps sending: the
// connection's window comes back, the stream's does not, until the client reads.
TEST(grpc_server_streams, a_client_that_does_not_read_has_its_stream_window_withheld) {
  grpc_server_config c = small_messages_config();
  c.http2.max_unsent_stream_bytes = 4096;
  session s(c);
  std::string settings("\x00\x04", 2);  // SETTINGS_INITIAL_WINDOW_SIZE = 0
  put32(settings, 0);
  std::string input = std::string(preface) + frame(type_settings, 0, 0, settings) +
                      request(1, {.path = greet_stream});
  // Replies are encoded between reads (as the host answers the calls a read handed out), so the
  // bound holds from the next read on: 9 KB of calls, then 28 KB more once 9 KB of replies wait.
  const std::string name(900, 'n');
  for (std::uint64_t id = 1; id <= 10; ++id) input += data(1, greet_message(name, id));
  ASSERT_FALSE(s.read(input));
  input.clear();
  for (std::uint64_t id = 11; id <= 40; ++id) input += data(1, greet_message(name, id));
  ASSERT_FALSE(s.read(input));
  std::string out;
  ASSERT_FALSE(s.output(out));
  auto window_updates = [](const std::vector<parsed_frame>& frames, std::uint32_t id) {
    std::size_t n = 0;
    for (const parsed_frame& f : frames) n += f.type == 8 && f.stream_id == id;
    return n;
  };
  auto frames = frames_of(out);
  EXPECT_EQ(window_updates(frames, 0), 1u) << "the connection's window comes back (37 KB)";
  EXPECT_EQ(window_updates(frames, 1), 0u) << "the stream's is withheld";
  EXPECT_TRUE(greetings(on_stream(frames, 1)).empty()) << "no window for a reply";

  // The client reads: a window for the replies. They go, and the stream's window comes back.
  std::string increment;
  put32(increment, 1 << 20);
  ASSERT_FALSE(s.read(frame(8, 0, 1, increment)));
  out.clear();
  ASSERT_FALSE(s.output(out));
  frames = frames_of(out);
  EXPECT_EQ(greetings(on_stream(frames, 1)).size(), 40u);
  EXPECT_EQ(window_updates(frames, 1), 1u);
}

}  // namespace
}  // namespace wirebench::grpc_wire
