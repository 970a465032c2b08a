// line_encoder and length_prefix_encoder: the exact bytes on the wire, the errors, and that the
// payload is referenced rather than copied.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/text_frames.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/codec/length_prefix_encoder.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/codec/line_encoder.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {
namespace {

// What a writev of the frame's buffers puts on the wire.
std::string wire(const encoded_frame& f) {
  std::string out;
  for (auto b : f.buffers()) out += as_text(b);
  EXPECT_EQ(out.size(), f.size());
  return out;
}

std::string bytes(std::initializer_list<int> list) {
  std::string out;
  for (int b : list) out += static_cast<char>(b);
  return out;
}

length_prefix_config lp(std::size_t width, std::size_t max = 1 << 20) {
  return {.header_bytes = width, .max_frame_bytes = max};
}

// Every frame `dec` finds in `stream`, which it must use up, without an error.
template <class Decoder>
std::vector<std::string> frames_in(Decoder& dec, const std::string& stream) {
  std::vector<std::string> got;
  std::error_code error;
  const std::size_t used = decode_frames(dec, as_bytes(stream), error,
                                         [&](std::string_view frame) { got.emplace_back(frame); });
  EXPECT_FALSE(error) << error.message();
  EXPECT_EQ(used, stream.size());
  return got;
}

// ---- line_encoder ---------------------------------------------------------------------------

TEST(LineEncoder, Lf) {
  const line_encoder enc;
  const std::string payload = "abc";
  encoded_frame f;
  ASSERT_EQ(enc.encode(as_bytes(payload), f), std::error_code{});
  EXPECT_EQ(wire(f), "abc\n");
  EXPECT_EQ(f.size(), 4u);
  EXPECT_TRUE(f.prefix().empty());
  EXPECT_EQ(as_text(f.suffix()), "\n");
  EXPECT_EQ(f.payload.data(), as_bytes(payload).data()) << "the payload must not be copied";
  EXPECT_EQ(f.payload.size(), 3u);
}

TEST(LineEncoder, Crlf) {
  line_encoder_config c;
  c.crlf = true;
  const line_encoder enc(c);
  const std::string payload = "abc";
  encoded_frame f;
  ASSERT_FALSE(enc.encode(as_bytes(payload), f));
  EXPECT_EQ(wire(f), "abc\r\n");
  EXPECT_EQ(as_text(f.suffix()), "\r\n");
  EXPECT_EQ(f.size(), 5u);
  EXPECT_EQ(f.payload.data(), as_bytes(payload).data());
}

TEST(LineEncoder, EmptyPayloadAndCrInPayload) {
  const line_encoder enc;
  encoded_frame f;
  ASSERT_FALSE(enc.encode(as_bytes(""), f));
  EXPECT_EQ(wire(f), "\n");
  ASSERT_FALSE(enc.encode(std::span<const std::byte>{}, f));
  EXPECT_EQ(wire(f), "\n");
  ASSERT_FALSE(enc.encode(as_bytes("a\rb"), f));
  EXPECT_EQ(wire(f), "a\rb\n");
}

TEST(LineEncoder, NewlineInPayloadIsInvalidArgument) {
  const line_encoder enc;
  encoded_frame f;
  for (std::string_view p : {"a\nb", "\n", "abc\n", "\nabc"}) {
    const std::error_code ec = enc.encode(as_bytes(p), f);
    EXPECT_EQ(ec, errc::invalid_argument) << ec.message();
    EXPECT_EQ(ec.category(), error_category());
  }
}

TEST(LineEncoder, OverMaxIsFrameTooLong) {
  line_encoder_config c;
  c.max_line_bytes = 4;
  const line_encoder enc(c);
  encoded_frame f;
  EXPECT_FALSE(enc.encode(as_bytes("abcd"), f));
  EXPECT_EQ(wire(f), "abcd\n");
  EXPECT_EQ(enc.encode(as_bytes("abcde"), f), errc::frame_too_long);

  c.crlf = true;  // the limit is on the payload, not counting "\r\n"
  const line_encoder crlf(c);
  EXPECT_FALSE(crlf.encode(as_bytes("abcd"), f));
  EXPECT_EQ(wire(f), "abcd\r\n");
  EXPECT_EQ(crlf.encode(as_bytes("abcde"), f), errc::frame_too_long);

  const line_encoder dflt;
  const std::string at_default(64 * 1024, 'x');
  EXPECT_FALSE(dflt.encode(as_bytes(at_default), f));
  EXPECT_EQ(dflt.encode(as_bytes(at_default + "x"), f), errc::frame_too_long);
}

TEST(LineEncoder, RoundTripThroughTheDecoder) {
  for (bool crlf : {false, true}) {
    line_encoder_config c;
    c.crlf = crlf;
    const line_encoder enc(c);
    const std::vector<std::string> payloads = {"one", "", "t\rwo", std::string(1000, 'z'), "\r"};
    std::string stream;
    for (const auto& p : payloads) {
      encoded_frame f;
      ASSERT_FALSE(enc.encode(as_bytes(p), f));
      stream += wire(f);
    }
    // With crlf the decoder must strip the '\r'; without it, a payload ending in '\r' would be
    // ambiguous under strip_cr, so decode without stripping.
    line_decoder_config dc;
    dc.strip_cr = crlf;
    line_decoder dec(dc);
    EXPECT_EQ(frames_in(dec, stream), payloads) << "with crlf, \"\\r\" + \"\\r\\n\" loses only the framing '\\r'";
  }
}

// ---- length_prefix_encoder ------------------------------------------------------------------

TEST(LengthPrefixEncoder, HiWithEveryWidth) {
  const std::string payload = "hi";
  const std::vector<std::pair<std::size_t, std::string>> cases = {
      {1, bytes({0x02})},
      {2, bytes({0x00, 0x02})},
      {4, bytes({0x00, 0x00, 0x00, 0x02})},
      {8, bytes({0, 0, 0, 0, 0, 0, 0, 0x02})},
  };
  for (const auto& [width, hdr] : cases) {
    SCOPED_TRACE(width);
    const length_prefix_encoder enc(lp(width));
    encoded_frame f;
    ASSERT_EQ(enc.encode(as_bytes(payload), f), std::error_code{});
    EXPECT_EQ(wire(f), hdr + "hi");
    EXPECT_EQ(as_text(f.prefix()), hdr);
    EXPECT_TRUE(f.suffix().empty());
    EXPECT_EQ(f.size(), width + 2);
    EXPECT_EQ(f.payload.data(), as_bytes(payload).data()) << "the payload must not be copied";
    EXPECT_EQ(f.payload.size(), 2u);
  }
}

TEST(LengthPrefixEncoder, BigEndianMultiByteLengths) {
  const std::string p300(300, 'a');      // 0x012C
  const std::string p70000(70000, 'b');  // 0x011170
  encoded_frame f;
  ASSERT_FALSE(length_prefix_encoder(lp(2)).encode(as_bytes(p300), f));
  EXPECT_EQ(as_text(f.prefix()), bytes({0x01, 0x2C}));
  ASSERT_FALSE(length_prefix_encoder(lp(4)).encode(as_bytes(p300), f));
  EXPECT_EQ(as_text(f.prefix()), bytes({0x00, 0x00, 0x01, 0x2C}));
  ASSERT_FALSE(length_prefix_encoder(lp(4)).encode(as_bytes(p70000), f));
  EXPECT_EQ(as_text(f.prefix()), bytes({0x00, 0x01, 0x11, 0x70}));
  EXPECT_EQ(wire(f), bytes({0x00, 0x01, 0x11, 0x70}) + p70000);
  ASSERT_FALSE(length_prefix_encoder(lp(8)).encode(as_bytes(p70000), f));
  EXPECT_EQ(as_text(f.prefix()), bytes({0, 0, 0, 0, 0, 0x01, 0x11, 0x70}));
  EXPECT_EQ(length_prefix_encoder(lp(2)).encode(as_bytes(p70000), f), errc::frame_too_long)
      << "70000 does not fit in 16 bits";
}

TEST(LengthPrefixEncoder, ZeroLengthPayloadIsJustTheHeader) {
  for (std::size_t w : {1u, 2u, 4u, 8u}) {
    encoded_frame f;
    ASSERT_FALSE(length_prefix_encoder(lp(w)).encode(as_bytes(""), f));
    EXPECT_EQ(wire(f), std::string(w, '\0'));
    EXPECT_EQ(f.size(), w);
    ASSERT_FALSE(length_prefix_encoder(lp(w)).encode(std::span<const std::byte>{}, f));
    EXPECT_EQ(wire(f), std::string(w, '\0'));
  }
}

TEST(LengthPrefixEncoder, HeaderWidthLimits) {
  encoded_frame f;
  const length_prefix_encoder one(lp(1));
  EXPECT_FALSE(one.encode(as_bytes(std::string(255, 'x')), f));
  EXPECT_EQ(as_text(f.prefix()), bytes({0xFF}));
  EXPECT_EQ(one.encode(as_bytes(std::string(256, 'x')), f), errc::frame_too_long);

  const length_prefix_encoder two(lp(2));
  EXPECT_FALSE(two.encode(as_bytes(std::string(65535, 'x')), f));
  EXPECT_EQ(as_text(f.prefix()), bytes({0xFF, 0xFF}));
  EXPECT_EQ(two.encode(as_bytes(std::string(65536, 'x')), f), errc::frame_too_long);
}

TEST(LengthPrefixEncoder, MaxFrameBytes) {
  for (std::size_t w : {1u, 2u, 4u, 8u}) {
    SCOPED_TRACE(w);
    const length_prefix_encoder enc(lp(w, 10));
    encoded_frame f;
    EXPECT_FALSE(enc.encode(as_bytes(std::string(10, 'x')), f));
    EXPECT_EQ(f.size(), w + 10);
    EXPECT_EQ(enc.encode(as_bytes(std::string(11, 'x')), f), errc::frame_too_long);
  }
  const length_prefix_encoder dflt;  // 4 bytes, 1 MiB
  encoded_frame f;
  const std::string mib(1 << 20, 'm');
  EXPECT_FALSE(dflt.encode(as_bytes(mib), f));
  EXPECT_EQ(as_text(f.prefix()), bytes({0x00, 0x10, 0x00, 0x00}));
  EXPECT_EQ(dflt.encode(as_bytes(mib + "m"), f), errc::frame_too_long);
}

TEST(LengthPrefixEncoder, InvalidWidthThrows) {
  for (std::size_t w : {0u, 3u, 5u, 16u})
    EXPECT_THROW(length_prefix_encoder{lp(w)}, std::invalid_argument) << w;
}

TEST(LengthPrefixEncoder, RoundTripThroughTheDecoder) {
  for (std::size_t w : {1u, 2u, 4u, 8u}) {
    SCOPED_TRACE(w);
    const length_prefix_encoder enc(lp(w, 255));
    length_prefix_decoder dec(lp(w, 255));
    std::vector<std::string> payloads = {"", "a", std::string(255, '\xff'), std::string("\0\n", 2)};
    std::string stream;
    for (const auto& p : payloads) {
      encoded_frame f;
      ASSERT_FALSE(enc.encode(as_bytes(p), f));
      stream += wire(f);
    }
    EXPECT_EQ(frames_in(dec, stream), payloads);
  }
}

}  // namespace
}  // namespace wirebench
