// The msgpack-rpc stream decoder alone (sans-IO): a message cut across reads is still a message
// in the making, and the size bound holds for a message however its bytes arrive.
#include <gtest/gtest.h>

#include "../../src/protocols/msgpack_rpc/msgpack_rpc_codec.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::msgpack_rpc {
namespace {

std::string response_bytes(std::string_view result) {
  std::string out;
  append_response(out, 7, result);
  return out;
}

TEST(msgpack_rpc_stream_decoder, a_message_cut_in_two_is_mid_message_until_its_last_byte) {
  const std::string message = response_bytes("hello, you");
  stream_decoder decoder;
  std::error_code error;
  // The array header and its first three elements, each complete: [1, 7, nil, ...
  decoder.feed(as_bytes(std::string_view(message).substr(0, 4)));
  EXPECT_FALSE(decoder.next(error));
  EXPECT_FALSE(error);
  // The unpacker has parsed all it was given: the message is pending though no byte is unparsed.
  EXPECT_TRUE(decoder.mid_message());
  decoder.feed(as_bytes(std::string_view(message).substr(4)));
  auto handle = decoder.next(error);
  ASSERT_TRUE(handle);
  const auto reply = as_response(handle->get());
  ASSERT_TRUE(reply);
  EXPECT_EQ(reply->msgid, 7u);
  EXPECT_EQ(reply->result.as<std::string>(), "hello, you");
  EXPECT_FALSE(decoder.mid_message());
}

TEST(msgpack_rpc_stream_decoder, a_message_over_the_bound_is_refused_whole_or_in_pieces) {
  const std::string message = response_bytes(std::string(100, 'x'));  // 100 + 6 bytes
  limits small;
  small.max_buffered = 64;
  for (std::size_t first : {message.size(), std::size_t{50}, std::size_t{80}}) {
    stream_decoder decoder(small);
    std::error_code error;
    std::optional<msgpack::object_handle> got;
    decoder.feed(as_bytes(std::string_view(message).substr(0, first)));
    got = decoder.next(error);
    if (!error && !got) {
      decoder.feed(as_bytes(std::string_view(message).substr(first)));
      got = decoder.next(error);
    }
    EXPECT_FALSE(got) << "first read " << first;
    EXPECT_EQ(error, errc::frame_too_long) << "first read " << first;
  }
  // At the bound it passes.
  limits exact;
  exact.max_buffered = message.size();
  stream_decoder decoder(exact);
  std::error_code error;
  decoder.feed(as_bytes(message));
  EXPECT_TRUE(decoder.next(error));
  EXPECT_FALSE(error);
}

}  // namespace
}  // namespace wirebench::msgpack_rpc
