// The read buffer under a framed stream and a connection: what prepare() gives as room, when it
// moves the unused bytes to the front, when it grows, and that it never grows past its limit.
#include "wirebench/transport/frame_buffer.hpp"

#include <cstring>
#include <string>
#include <string_view>

#include <gtest/gtest.h>

namespace wirebench {
namespace {

// Reads `text` into the buffer, as a stream read would.
void read_in(frame_buffer& b, std::string_view text, std::size_t min_room = 1) {
  const auto room = b.prepare(min_room);
  ASSERT_GE(room.size(), text.size());
  std::memcpy(room.data(), text.data(), text.size());
  b.commit(text.size());
}

std::string contents(const frame_buffer& b) {
  return {reinterpret_cast<const char*>(b.data().data()), b.size()};
}

TEST(frame_buffer, grows_by_doubling_to_its_limit_and_no_further) {
  frame_buffer b(/*max_bytes=*/10, /*initial_bytes=*/4);
  read_in(b, "abcd");
  EXPECT_EQ(b.prepare().size(), 4u) << "full at 4: doubled to 8";
  read_in(b, "efgh");
  EXPECT_EQ(b.prepare().size(), 2u) << "full at 8: grown to the limit, 10";
  read_in(b, "ij");
  EXPECT_TRUE(b.prepare().empty()) << "full at its limit: no room, no growth";
  EXPECT_EQ(contents(b), "abcdefghij");
}

// Full, or with less room than asked for: the bytes left move to the front, and it does not grow.
TEST(frame_buffer, moves_what_is_left_to_the_front_when_the_room_is_short) {
  frame_buffer b(16, 16);
  read_in(b, "0123456789ab");
  b.consume(10);
  EXPECT_EQ(b.prepare().size(), 4u) << "4 bytes of room are enough by default: nothing moves";
  EXPECT_EQ(b.prepare(8).size(), 14u) << "asked for 8: the 2 bytes left moved to the front";
  EXPECT_EQ(contents(b), "ab");
  read_in(b, std::string(14, 'x'));
  b.consume(15);
  EXPECT_EQ(b.prepare().size(), 15u) << "full: the byte left moved to the front";
  EXPECT_EQ(contents(b), "x");
}

TEST(frame_buffer, consuming_everything_starts_again_at_the_front) {
  frame_buffer b(8, 8);
  read_in(b, "abc");
  b.consume(3);
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.prepare().size(), 8u);
}

}  // namespace
}  // namespace wirebench
