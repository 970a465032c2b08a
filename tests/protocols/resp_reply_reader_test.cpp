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
struct outcome {
  int replies = 0;
  std::error_code error;
};
outcome read_all(reply_reader& reader, const std::string& bytes, std::size_t piece) {
  outcome o;
  for (std::size_t at = 0; at < bytes.size() && !o.error; at += piece) {
    if ((o.error = reader.feed(as_bytes(std::string_view(bytes).substr(at, piece))))) break;
    reply_view reply;
    while (reader.next(reply, o.error)) ++o.replies;
    reader.release();
  }
  return o;
}

TEST(resp_reply_reader, a_reply_over_the_bound_is_refused_however_it_arrives) {
  const std::string big = "$20\r\nhello, a longer name\r\n";  // 27 bytes
  for (std::size_t piece : {big.size(), std::size_t{1}, std::size_t{7}}) {
    reply_reader reader(26);
    const outcome o = read_all(reader, big, piece);
    EXPECT_EQ(o.replies, 0) << "pieces of " << piece;
    EXPECT_EQ(o.error, errc::frame_too_long) << "pieces of " << piece;
    reply_reader exact(27);  // a reply of exactly the bound passes
    const outcome ok = read_all(exact, big, piece);
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

TEST(resp_reply_reader, many_small_replies_each_within_the_bound_all_pass) {
  std::string stream;
  for (int i = 0; i < 500; ++i) stream += "$9\r\nhello, n" + std::to_string(i % 10) + "\r\n";
  reply_reader reader(15);  // each reply is 15 bytes; 7500 bytes in all, past hiredis's 1 KiB compaction
  const outcome o = read_all(reader, stream, 1000);
  EXPECT_FALSE(o.error) << o.error.message();
  EXPECT_EQ(o.replies, 500);
}

}  // namespace
}  // namespace wirebench::resp
