// The RESP reply reader alone (sans-IO, over hiredis's reader): the reply bound holds for a reply
// however its bytes arrive, whole or a byte at a time, and counts what hiredis already parsed.
#include <string>

#include <gtest/gtest.h>

#include "../../src/protocols/resp/resp_reply_reader.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::resp {
namespace {

// Feeds `bytes` in pieces of `piece` bytes, reading after each; what the last read gave.
struct replies_read {
  int replies = 0;
  std::error_code error;
};
replies_read read_all(reply_reader& reader, const std::string& bytes, std::size_t piece) {
  replies_read o;
  for (std::size_t at = 0; at < bytes.size() && !o.error; at += piece) {
    reader.feed(as_bytes(std::string_view(bytes).substr(at, piece)));
    while (reader.next(o.error)) ++o.replies;
    reader.release();
  }
  return o;
}

TEST(resp_reply_reader, a_reply_over_the_bound_is_refused_however_it_arrives) {
  const std::string big = "$20\r\nhello, a longer name\r\n";  // 27 bytes
  for (std::size_t piece : {big.size(), std::size_t{1}, std::size_t{7}}) {
    reply_reader reader(26);
    const replies_read o = read_all(reader, big, piece);
    EXPECT_EQ(o.replies, 0) << "pieces of " << piece;
    EXPECT_EQ(o.error, errc::frame_too_long) << "pieces of " << piece;
    reply_reader exact(27);  // a reply of exactly the bound passes
    const replies_read ok = read_all(exact, big, piece);
    EXPECT_EQ(ok.replies, 1) << "pieces of " << piece;
    EXPECT_FALSE(ok.error) << "pieces of " << piece;
  }
}

TEST(resp_reply_reader, an_array_is_bounded_by_all_its_elements) {
  // 4 + 3 x 9 = 31 bytes: hiredis parses the first elements before the last arrive.
  const std::string array = "*3\r\n$3\r\naaa\r\n$3\r\nbbb\r\n$3\r\nccc\r\n";
  for (std::size_t piece : {array.size(), std::size_t{1}, std::size_t{9}}) {
    reply_reader reader(30);
    EXPECT_EQ(read_all(reader, array, piece).error, errc::frame_too_long) << "pieces of " << piece;
    reply_reader exact(31);
    EXPECT_EQ(read_all(exact, array, piece).replies, 1) << "pieces of " << piece;
  }
}

// Mid-reply means bytes of a reply have arrived and it is not complete; not hiredis's task
// index, which reads "in progress" after a reply when its buffer was not compacted.
TEST(resp_reply_reader, mid_reply_is_true_only_between_a_replys_first_and_last_byte) {
  reply_reader reader(1024);
  std::error_code error;
  EXPECT_FALSE(reader.mid_reply());
  reader.feed(as_bytes(std::string_view("*1\r\n+O")));
  EXPECT_FALSE(reader.next(error));
  EXPECT_TRUE(reader.mid_reply());
  reader.feed(as_bytes(std::string_view("K\r\n")));
  EXPECT_TRUE(reader.next(error));
  EXPECT_FALSE(reader.next(error));  // nothing more: hiredis starts an empty root item
  EXPECT_FALSE(error);
  EXPECT_FALSE(reader.mid_reply());
  reader.feed(as_bytes(std::string_view("*")));  // one byte of the next reply
  EXPECT_FALSE(reader.next(error));
  EXPECT_TRUE(reader.mid_reply());
}

TEST(resp_reply_reader, many_small_replies_each_within_the_bound_all_pass) {
  std::string stream;
  for (int i = 0; i < 500; ++i) stream += "$9\r\nhello, n" + std::to_string(i % 10) + "\r\n";
  reply_reader reader(15);  // each reply is 15 bytes; 7500 bytes in all, past hiredis's 1 KiB compaction
  const replies_read o = read_all(reader, stream, 1000);
  EXPECT_FALSE(o.error) << o.error.message();
  EXPECT_EQ(o.replies, 500);
}

}  // namespace
}  // namespace wirebench::resp
