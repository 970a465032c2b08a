#include "wirebench/mux/mux_frame.hpp"

#include <gtest/gtest.h>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

std::string wire(const encoded_frame& f) {
  std::string out;
  for (auto part : f.buffers()) out += as_text(part);
  return out;
}

TEST(mux_frame, request_bytes_match_the_documented_example) {
  encoded_frame f;
  ASSERT_FALSE(encode_mux_frame(mux_frame_type::request, 0x01020304, as_bytes("bob"), 1024, f));
  // docs/PROTOCOLS.md: length 8, type 1, id 01 02 03 04, "bob"
  EXPECT_EQ(wire(f), std::string("\x00\x00\x00\x08\x01\x01\x02\x03\x04" "bob", 12));
}

TEST(mux_frame, payload_is_referenced_not_copied) {
  const std::string body = "hello, bob";
  encoded_frame f;
  ASSERT_FALSE(encode_mux_frame(mux_frame_type::reply, 7, as_bytes(body), 1024, f));
  EXPECT_EQ(static_cast<const void*>(f.payload.data()), static_cast<const void*>(body.data()));
  EXPECT_EQ(f.prefix_size, 9);
}

TEST(mux_frame, parses_every_type_and_refuses_garbage) {
  for (int t = 1; t <= 7; ++t) {
    std::string bytes = std::string(1, static_cast<char>(t)) + std::string("\x00\x00\x01\x00", 4) + "xy";
    auto f = parse_mux_frame(as_bytes(bytes));
    ASSERT_TRUE(f) << t;
    EXPECT_EQ(static_cast<int>(f->type), t);
    EXPECT_EQ(f->id, 256u);
    EXPECT_EQ(as_text(f->payload), "xy");
  }
  EXPECT_FALSE(parse_mux_frame(as_bytes(std::string("\x01\x00\x00\x00", 4))));  // short
  EXPECT_FALSE(parse_mux_frame(as_bytes(std::string("\x00\x00\x00\x00\x01", 5))));  // type 0
  EXPECT_FALSE(parse_mux_frame(as_bytes(std::string("\x08\x00\x00\x00\x01", 5))));  // type 8
  auto empty = parse_mux_frame(as_bytes(std::string("\x02\xff\xff\xff\xff", 5)));
  ASSERT_TRUE(empty);
  EXPECT_EQ(empty->id, 0xffffffffu);
  EXPECT_TRUE(empty->payload.empty());
}

TEST(mux_frame, payload_over_the_receivers_limit_is_refused) {
  encoded_frame f;
  EXPECT_EQ(encode_mux_frame(mux_frame_type::request, 1, as_bytes("12345"), 4, f),
            errc::frame_too_long);
  EXPECT_FALSE(encode_mux_frame(mux_frame_type::request, 1, as_bytes("1234"), 4, f));
}

}  // namespace
}  // namespace wirebench
