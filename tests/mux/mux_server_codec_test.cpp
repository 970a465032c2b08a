// The mux server codec on bytes alone: what each frame a client may send becomes, the exact reply
// bytes (docs/PROTOCOLS.md), the oversize reply, the drain frame, and what a client must not send.
#include "wirebench/mux/mux_server_codec.hpp"

#include <string>

#include <gtest/gtest.h>

#include "support/queued_text.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

using kind = server_request::kind;

std::string frame(char type, std::uint32_t id, std::string_view payload) {
  const auto n = static_cast<std::uint32_t>(payload.size() + 5);
  std::string out{char(n >> 24), char(n >> 16), char(n >> 8), char(n), type,
                  char(id >> 24), char(id >> 16), char(id >> 8), char(id)};
  return out.append(payload);
}

using test::take_queued_text;

struct decoded_request {
  std::size_t consumed;
  server_request request;
  std::error_code error;
};

decoded_request decode(mux_server_codec& codec, std::string_view bytes, gather_queue& out) {
  decoded_request d;
  d.consumed = codec.decode(as_bytes(bytes), d.request, out, d.error);
  return d;
}

TEST(mux_server_codec, a_request_is_a_call_keyed_by_its_id_and_its_reply_carries_it) {
  mux_server_codec codec(1024);
  gather_queue out;
  const std::string bytes = frame(1, 0x01020304, "bob") + frame(1, 9, "x").substr(0, 6);
  const auto d = decode(codec, bytes, out);
  EXPECT_EQ(d.consumed, 12u);
  EXPECT_EQ(d.request.what, kind::call);
  EXPECT_EQ(d.request.key, 0x01020304u);
  EXPECT_EQ(d.request.argument, "bob");
  EXPECT_FALSE(d.error);
  codec.encode_reply(d.request.key, true, "hello, bob", out);
  codec.encode_owned_reply(7, false, std::string("busy"), out);
  EXPECT_EQ(take_queued_text(out), frame(2, 0x01020304, "hello, bob") + frame(3, 7, "busy"));
  // The partial frame: left in the read buffer, nothing whole yet.
  const auto rest = decode(codec, std::string_view(bytes).substr(12), out);
  EXPECT_EQ(rest.request.what, kind::none);
  EXPECT_EQ(rest.consumed, 0u);
  EXPECT_FALSE(codec.ordered());
}

TEST(mux_server_codec, cancels_pings_and_pongs) {
  mux_server_codec codec(1024);
  gather_queue out;
  const std::string bytes = frame(6, 0, "late pong") + frame(4, 5, "") + frame(5, 0, "pp");
  const auto cancel = decode(codec, bytes, out);
  EXPECT_EQ(cancel.request.what, kind::cancel);  // the pong before it skipped
  EXPECT_EQ(cancel.request.key, 5u);
  const auto ping = decode(codec, std::string_view(bytes).substr(cancel.consumed), out);
  EXPECT_EQ(ping.request.what, kind::notice);
  EXPECT_EQ(ping.request.answer, frame(6, 0, "pp"));
  EXPECT_EQ(cancel.consumed + ping.consumed, bytes.size());
  EXPECT_TRUE(out.empty());
}

TEST(mux_server_codec, a_reply_over_the_limit_becomes_the_error_reply_that_says_so) {
  mux_server_codec codec(8);
  gather_queue out;
  codec.encode_reply(3, true, "hello, bobby", out);
  codec.encode_owned_reply(4, true, std::string(100, 'x'), out);
  codec.encode_reply(5, false, "a long error text", out);
  EXPECT_EQ(take_queued_text(out), frame(3, 3, "frame_too_long") + frame(3, 4, "frame_too_long") +
                            frame(3, 5, "frame_too_long"));
}

TEST(mux_server_codec, a_graceful_stop_sends_a_drain_frame) {
  mux_server_codec codec(1024);
  gather_queue out;
  codec.going_away(out);
  EXPECT_EQ(take_queued_text(out), frame(7, 0, ""));
}

TEST(mux_server_codec, frames_a_client_must_not_send_break_the_stream) {
  for (const char type : {char(2), char(3), char(7), char(9)}) {
    mux_server_codec codec(1024);
    gather_queue out;
    const auto d = decode(codec, frame(type, 1, "x"), out);
    EXPECT_EQ(d.error, make_error_code(errc::protocol_error)) << int(type);
    EXPECT_EQ(d.request.what, kind::none);
  }
  mux_server_codec codec(4);
  gather_queue out;
  EXPECT_EQ(decode(codec, frame(1, 1, "too long"), out).error,
            make_error_code(errc::frame_too_long));
}

}  // namespace
}  // namespace wirebench
