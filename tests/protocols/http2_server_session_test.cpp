// The HTTP/2 server session (a server codec) alone, driven with hand-made frames (RFC 9113 §4.1, HPACK literals
// that leave the dynamic table alone) and no socket: a greet round trip in any split, and the
// stream-id rules of §5.1.1 on top of what nghttp2 enforces.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nghttp2/nghttp2.h>

#include "support/h2_frames.hpp"
#include "support/h2_greet_session.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::http2 {
namespace {

using test::greet_session;
using namespace test::h2;

// GET `path` on `stream_id`, the whole request in one HEADERS frame.
std::string get(std::uint32_t stream_id, std::string_view path,
                std::uint8_t flags = end_stream | end_headers) {
  // :method GET (static 2), :scheme http (static 6), :path (name 4), :authority (name 1)
  const std::string block = "\x82\x86" + literal(4, path) + literal(1, "localhost");
  return frame(type_headers, flags, stream_id, block);
}

// The headers without date, after checking it is there and an IMF-fixdate (29 characters, GMT).
header_list without_date(header_list headers) {
  const auto date = std::find_if(headers.begin(), headers.end(),
                                 [](const auto& h) { return h.first == "date"; });
  if (date == headers.end()) {
    ADD_FAILURE() << "no date header";
    return headers;
  }
  EXPECT_EQ(date->second.size(), 29u) << date->second;
  EXPECT_TRUE(date->second.ends_with(" GMT")) << date->second;
  headers.erase(date);
  return headers;
}

// Feeds `input` in pieces of `step` bytes; returns the first error (input stops there).
std::error_code feed(greet_session& s, std::string_view input, std::size_t step) {
  for (std::size_t at = 0; at < input.size(); at += step)
    if (auto ec = s.read(input.substr(at, step))) return ec;
  return {};
}

std::string output_of(greet_session& s) {
  std::string out;
  EXPECT_FALSE(s.output(out));
  return out;
}


TEST(http2_server_session, a_get_greet_is_answered_the_same_in_any_split) {
  const std::string request = opening() + get(1, "/greet?name=ada%20lovelace");
  std::string first_output;
  header_list first_headers;
  for (std::size_t step : {request.size(), std::size_t{1}, std::size_t{7}}) {
    greet_session s({});
    ASSERT_FALSE(feed(s, request, step)) << "step " << step;
    EXPECT_EQ(s.take_answered(), 1u);
    EXPECT_EQ(s.take_answered(), 0u) << "taken once";
    EXPECT_TRUE(s.busy()) << "the reply is not sent yet";
    const std::string out = output_of(s);
    EXPECT_FALSE(s.busy()) << "the stream closed with its reply";
    EXPECT_TRUE(s.want_read());
    // The same bytes but for the HEADERS block, where the date may have moved on a second.
    auto frames = frames_of(out);
    ASSERT_EQ(frames.size(), 4u);
    const header_list headers = without_date(decode_headers(frames[2].payload));
    frames[2] = {};
    std::string rest;
    for (const parsed_frame& f : frames) rest += f.bytes;
    if (first_output.empty()) {
      first_output = out;
      first_headers = headers;
    }
    EXPECT_EQ(headers, first_headers) << "step " << step;
    frames = frames_of(first_output);
    frames[2] = {};
    std::string first_rest;
    for (const parsed_frame& f : frames) first_rest += f.bytes;
    EXPECT_EQ(rest, first_rest) << "step " << step;
  }
  const auto frames = frames_of(first_output);
  ASSERT_EQ(frames.size(), 4u);
  // Our SETTINGS: MAX_CONCURRENT_STREAMS (3) = 100, the default config. Then the ACK of theirs.
  EXPECT_EQ(frames[0].bytes, frame(type_settings, 0, 0, std::string("\0\x03\0\0\0\x64", 6)));
  EXPECT_EQ(frames[1].bytes, frame(type_settings, ack, 0, ""));
  EXPECT_EQ(frames[2].type, type_headers);
  EXPECT_EQ(frames[2].stream_id, 1u);
  EXPECT_EQ(frames[2].flags, end_headers);
  EXPECT_EQ(first_headers, (header_list{{":status", "200"},
                                         {"content-type", "application/json"},
                                         {"content-length", "34"}}));
  EXPECT_EQ(frames[3].bytes,
            frame(type_data, end_stream, 1, R"({"greeting":"hello, ada lovelace"})"));
}

TEST(http2_server_session, an_unknown_path_is_answered_404_without_closing) {
  greet_session s({});
  ASSERT_FALSE(feed(s, opening() + get(1, "/nope"), 64));
  EXPECT_EQ(s.take_answered(), 1u);
  const auto frames = frames_of(output_of(s));
  const parsed_frame* headers = find(frames, type_headers);
  ASSERT_NE(headers, nullptr);
  EXPECT_EQ(static_cast<std::uint8_t>(headers->payload[0]), 0x8d) << ":status 404 (static 13)";
  EXPECT_EQ(find(frames, type_goaway), nullptr);
  EXPECT_TRUE(s.want_read());
}

// A body over the limit is answered 413 at once, before the client has sent all of it; then
// RST_STREAM(NO_ERROR) tells the client to stop sending (RFC 9113 §8.1).
TEST(http2_server_session, a_body_over_the_limit_is_answered_413_then_the_stream_is_reset) {
  server_session_config config;
  config.max_body_bytes = 16;
  greet_session s(config);
  const std::string post = "\x83\x86" + literal(4, "/greet") + literal(1, "localhost");
  ASSERT_FALSE(feed(s, opening() + frame(type_headers, end_headers, 1, post) +
                           frame(type_data, 0, 1, std::string(20, 'x')), 64));
  const auto frames = frames_of(output_of(s));
  const parsed_frame* headers = find(frames, type_headers);
  ASSERT_NE(headers, nullptr);
  EXPECT_EQ(headers->payload.substr(0, 5), "\x48\x03" "413")
      << ":status 413, a literal with indexing on the name of static entry 8";
  ASSERT_FALSE(frames.empty());
  const parsed_frame& last = frames.back();
  EXPECT_EQ(last.type, 3) << "RST_STREAM after the response";
  EXPECT_EQ(last.stream_id, 1u);
  EXPECT_EQ(last.payload, std::string(4, '\0')) << "NO_ERROR";
  // A response that ends a finished request is not followed by a reset.
  greet_session plain(config);
  ASSERT_FALSE(feed(plain, opening() + get(1, "/greet?name=x"), 64));
  for (const parsed_frame& f : frames_of(output_of(plain))) EXPECT_NE(f.type, 3);
}

// HEAD gets GET's status and headers, content-length included, and no body: the HEADERS frame
// ends the stream (RFC 9110 §9.3.2). A DATA frame here made nghttp reset the stream.
TEST(http2_server_session, head_is_answered_with_headers_that_end_the_stream) {
  greet_session s({});
  // :method HEAD (a literal on static name 2), :scheme http, :path, :authority
  const std::string block = literal(2, "HEAD") + "\x86" + literal(4, "/greet?name=x") + literal(1, "h");
  ASSERT_FALSE(feed(s, opening() + frame(type_headers, end_stream | end_headers, 1, block), 64));
  EXPECT_EQ(s.take_answered(), 1u);
  const auto frames = frames_of(output_of(s));
  const parsed_frame* headers = find(frames, type_headers);
  ASSERT_NE(headers, nullptr);
  EXPECT_EQ(headers->flags, end_stream | end_headers);
  EXPECT_EQ(without_date(decode_headers(headers->payload)),
            (header_list{{":status", "200"},
                         {"content-type", "application/json"},
                         {"content-length", "23"}}))  // {"greeting":"hello, x"}
      << "GET's length";
  EXPECT_EQ(find(frames, type_data), nullptr);
  EXPECT_FALSE(s.busy()) << "the stream closed with its headers";
}

// 405 names what is allowed (RFC 9110 §15.5.6).
TEST(http2_server_session, another_method_is_answered_405_with_allow) {
  greet_session s({});
  const std::string block = literal(2, "DELETE") + "\x86" + literal(4, "/greet") + literal(1, "h");
  ASSERT_FALSE(feed(s, opening() + frame(type_headers, end_stream | end_headers, 1, block), 64));
  const auto frames = frames_of(output_of(s));
  const parsed_frame* headers = find(frames, type_headers);
  ASSERT_NE(headers, nullptr);
  const header_list got = without_date(decode_headers(headers->payload));
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], (std::pair<std::string, std::string>{":status", "405"}));
  EXPECT_EQ(got[3], (std::pair<std::string, std::string>{"allow", "GET, HEAD, POST"}));
  EXPECT_NE(find(frames, type_data), nullptr) << "an error body";
}

// h2spec http2/5.1.1/2: HEADERS on 5, then on 3, which opening 5 closed implicitly.
TEST(http2_server_session, headers_on_a_stream_id_the_client_skipped_is_a_protocol_error) {
  greet_session s({});
  const std::error_code ec =
      feed(s, opening() + get(5, "/greet?name=five") + get(3, "/greet?name=three"), 4096);
  EXPECT_EQ(ec, errc::protocol_error);
  const auto frames = frames_of(output_of(s));
  const parsed_frame* away = find(frames, type_goaway);
  ASSERT_NE(away, nullptr);
  EXPECT_EQ(away->bytes, goaway(5, 0x1)) << "last stream 5, PROTOCOL_ERROR";
  EXPECT_EQ(&frames.back(), away) << "nothing after the GOAWAY";
  EXPECT_FALSE(s.want_read());
  EXPECT_FALSE(s.want_write()) << "the connection may close";
}

TEST(http2_server_session, every_id_in_a_skipped_run_is_refused) {
  for (std::uint32_t skipped : {1u, 3u, 5u}) {
    greet_session s({});
    const std::error_code ec = feed(s, opening() + get(7, "/greet?name=a") + get(9, "/greet?name=b") +
                                           get(skipped, "/greet?name=c"),
                                    4096);
    EXPECT_EQ(ec, errc::protocol_error) << skipped;
    const auto frames = frames_of(output_of(s));
    const parsed_frame* away = find(frames, type_goaway);
    ASSERT_NE(away, nullptr) << skipped;
    EXPECT_EQ(away->bytes, goaway(9, 0x1)) << skipped;
  }
}

TEST(http2_server_session, only_the_latest_skipped_runs_are_remembered) {
  // Opens 3, 7, 11...: each skips one id (1, 5, 9...), one run more than is remembered.
  std::string input = opening();
  std::uint32_t id = 3;
  for (std::size_t run = 0; run <= server_core::max_skipped_runs; ++run, id += 4)
    input += get(id, "/greet?name=x", end_headers);  // left open: no reply to send meanwhile
  greet_session s({});
  ASSERT_FALSE(feed(s, input, 4096));
  EXPECT_FALSE(feed(s, get(1, "/greet?name=forgotten"), 4096)) << "left to nghttp2, which drops it";
  EXPECT_EQ(feed(s, get(5, "/greet?name=remembered"), 4096), errc::protocol_error);
}

// Trailers: a lower stream the client did open and has not ended may still get HEADERS.
TEST(http2_server_session, headers_ending_a_lower_open_stream_are_trailers_not_an_error) {
  greet_session s({});
  const std::string trailer = frame(type_headers, end_stream | end_headers, 1,
                                    std::string("\0\x03x-t\x01", 6) + "1");  // x-t: 1
  ASSERT_FALSE(feed(s,
                    opening() + get(1, "/greet?name=one", end_headers) + get(3, "/greet?name=three") +
                        trailer,
                    4096));
  EXPECT_EQ(s.take_answered(), 2u);
  const auto frames = frames_of(output_of(s));
  EXPECT_EQ(find(frames, type_goaway), nullptr);
  EXPECT_FALSE(s.busy());
}

// What nghttp2 already does for a stream that was opened and has ended: STREAM_CLOSED (h2spec
// 5.1/…), not the PROTOCOL_ERROR of a skipped id.
TEST(http2_server_session, headers_on_a_closed_stream_stay_stream_closed) {
  greet_session s({});
  ASSERT_FALSE(feed(s, opening() + get(1, "/greet?name=one"), 4096));
  EXPECT_EQ(s.take_answered(), 1u);
  output_of(s);  // the reply ends stream 1
  feed(s, get(1, "/greet?name=again"), 4096);  // nghttp2 drops the block and carries on parsing
  const auto frames = frames_of(output_of(s));
  const parsed_frame* away = find(frames, type_goaway);
  ASSERT_NE(away, nullptr);
  EXPECT_EQ(get32(away->payload.substr(4)), 0x5u) << "STREAM_CLOSED";
  EXPECT_EQ(s.take_answered(), 0u);
  EXPECT_FALSE(s.want_read() || s.want_write()) << "the connection may close";
}

TEST(http2_server_session, go_away_names_the_last_stream_and_still_answers_it) {
  greet_session s({});
  ASSERT_FALSE(feed(s, opening() + get(1, "/greet?name=x", end_headers), 4096));
  output_of(s);
  s.go_away();
  const auto frames = frames_of(output_of(s));
  const parsed_frame* away = find(frames, type_goaway);
  ASSERT_NE(away, nullptr);
  EXPECT_EQ(away->bytes, goaway(1, 0x0)) << "last stream 1, NO_ERROR";
  EXPECT_TRUE(s.busy()) << "stream 1 still waits for its end";
  ASSERT_FALSE(feed(s, frame(type_data, end_stream, 1, ""), 4096));
  EXPECT_EQ(s.take_answered(), 1u);
  const auto reply = frames_of(output_of(s));
  const parsed_frame* data = find(reply, type_data);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->payload, R"({"greeting":"hello, x"})");
  EXPECT_FALSE(s.busy());
}

// A request ended and then reset in the same read is still a call the server took (counted, as
// a mux request cancelled after it was sent), whatever the cut; its reply is dropped.
TEST(http2_server_session, a_call_reset_after_its_request_ended_is_taken_and_its_reply_dropped) {
  std::string reset_payload;
  put32(reset_payload, 0x8);  // CANCEL
  const std::string input = opening() + get(1, "/greet?name=gone") + frame(3, 0, 1, reset_payload) +
                            get(3, "/greet?name=kept");
  for (std::size_t step : {input.size(), std::size_t{1}}) {
    greet_session s({});
    ASSERT_FALSE(feed(s, input, step)) << "step " << step;
    EXPECT_EQ(s.take_answered(), 2u) << "step " << step;
    std::size_t replies_on_1 = 0, data_on_3 = 0;
    for (const parsed_frame& f : frames_of(output_of(s))) {
      replies_on_1 += f.stream_id == 1 && (f.type == type_headers || f.type == type_data);
      data_on_3 += f.stream_id == 3 && f.type == type_data;
    }
    if (step == input.size()) {
      EXPECT_EQ(replies_on_1, 0u) << "reset before its reply was made";
    }
    EXPECT_EQ(data_on_3, 1u) << "step " << step;
  }
}

}  // namespace
}  // namespace wirebench::http2
