// length_prefix_decoder: header widths, big-endian lengths, limits checked from the header alone,
// oversize policies, corrupt lengths, and independence from how the stream is split.
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/codec/length_prefix_encoder.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "codec/split_feeder.hpp"
#include "wirebench/codec/bytes.hpp"

namespace wirebench {
namespace {

using test::check_all_splits;
using test::corrupt_event;
using test::event;
using test::frame_event;
using test::outcome;
using test::run_whole;
using test::too_large_event;

length_prefix_config prefix_cfg(std::size_t width, std::size_t max = 1 << 20,
                         oversize_policy policy = oversize_policy::fail) {
  return {.header_bytes = width, .max_frame_bytes = max, .on_oversize = policy};
}

// A big-endian header written by hand (independent of the encoder under test).
std::string header(std::size_t width, std::uint64_t length) {
  std::string h(width, '\0');
  for (std::size_t i = width; i-- > 0;) {
    h[i] = static_cast<char>(length & 0xff);
    length >>= 8;
  }
  return h;
}

std::string frame(std::size_t width, std::string_view payload) {
  return header(width, payload.size()) + std::string(payload);
}

outcome decode_all(const length_prefix_config& c, std::string_view input) {
  const length_prefix_decoder prototype(c);
  EXPECT_EQ(check_all_splits(prototype, c.max_frame_bytes, input), "")
      << "config width=" << c.header_bytes << " max=" << c.max_frame_bytes
      << " resync=" << (c.on_oversize == oversize_policy::resync);
  const auto run = run_whole(prototype, c.max_frame_bytes, input);
  EXPECT_TRUE(run.violations.empty()) << run.violations.front();
  return run.result;
}

TEST(LengthPrefixDecoder, DefaultConfig) {
  const length_prefix_config c;
  EXPECT_EQ(c.header_bytes, 4u);
  EXPECT_EQ(c.max_frame_bytes, std::size_t{1} << 20);
  EXPECT_EQ(c.on_oversize, oversize_policy::fail);
  EXPECT_NO_THROW(c.validate());
}

TEST(LengthPrefixDecoder, ValidateRejectsBadWidths) {
  for (std::size_t w : {0u, 3u, 5u, 6u, 7u, 9u, 16u}) {
    SCOPED_TRACE(w);
    EXPECT_THROW(prefix_cfg(w).validate(), std::invalid_argument);
    EXPECT_THROW(length_prefix_decoder{prefix_cfg(w)}, std::invalid_argument);
    try {
      prefix_cfg(w).validate();
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("header_bytes"), std::string::npos) << e.what();
    }
  }
  for (std::size_t w : {1u, 2u, 4u, 8u}) EXPECT_NO_THROW(prefix_cfg(w).validate()) << w;
}

TEST(LengthPrefixDecoder, SingleCallResults) {
  length_prefix_decoder d(prefix_cfg(4));
  const std::string buf = frame(4, "hi") + frame(4, "") + std::string("\x00\x00", 2);
  auto r = d.decode(as_bytes(buf));
  EXPECT_EQ(test::step(r), "frame 'hi', consumed 6");
  EXPECT_EQ(r.frame.data(), as_bytes(buf).data() + 4) << "the frame is a view into the buffer";

  r = d.decode(as_bytes(buf).subspan(6));
  ASSERT_EQ(r.status, decode_status::frame);
  EXPECT_EQ(r.consumed, 4u);
  EXPECT_EQ(r.frame.size(), 0u);

  r = d.decode(as_bytes(buf).subspan(10));  // half a header
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 0u);
  EXPECT_FALSE(d.mid_frame());
  EXPECT_FALSE(d.failed());
}

class LengthPrefixWidth : public ::testing::TestWithParam<std::size_t> {};

TEST_P(LengthPrefixWidth, FramesAreTheSameWhateverTheSplit) {
  const std::size_t w = GetParam();
  std::string big(200, 'q');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i);
  const std::string input = frame(w, "hello") + frame(w, "") + frame(w, std::string("\0\n\r", 3)) +
                            frame(w, big) + frame(w, "") + frame(w, "x") + frame(w, "tail").substr(0, w + 2);
  const outcome o = decode_all(prefix_cfg(w, 1000), input);
  EXPECT_EQ(o.events, (std::vector<event>{frame_event("hello"), frame_event(""),
                                          frame_event(std::string("\0\n\r", 3)), frame_event(big),
                                          frame_event(""), frame_event("x")}))
      << test::describe(o.events);
  EXPECT_EQ(o.unconsumed, frame(w, "tail").substr(0, w + 2));
  EXPECT_FALSE(o.failed);
  EXPECT_FALSE(o.mid_frame);
}

TEST_P(LengthPrefixWidth, ZeroLengthFrames) {
  const std::size_t w = GetParam();
  const std::string zero = header(w, 0);
  EXPECT_EQ(decode_all(prefix_cfg(w), zero + zero + zero).events,
            (std::vector<event>{frame_event(""), frame_event(""), frame_event("")}));
  // Even with a limit of 0.
  EXPECT_EQ(decode_all(prefix_cfg(w, 0), zero + frame(w, "a")).events,
            (std::vector<event>{frame_event(""), too_large_event()}));
}

TEST_P(LengthPrefixWidth, LimitExactlyNAcceptedNPlusOneRefused) {
  const std::size_t w = GetParam();
  const std::size_t n = w == 1 ? 254 : 300;
  for (auto policy : {oversize_policy::fail, oversize_policy::resync}) {
    SCOPED_TRACE(policy == oversize_policy::fail ? "fail" : "resync");
    const auto c = prefix_cfg(w, n, policy);
    const std::string ok(n, 'k');
    const std::string over(n + 1, 'o');
    EXPECT_EQ(decode_all(c, frame(w, ok)).events, std::vector<event>{frame_event(ok)});
    EXPECT_EQ(decode_all(c, frame(w, over)).events, std::vector<event>{too_large_event()});
  }
}

TEST_P(LengthPrefixWidth, OverLimitRefusedFromTheHeaderAlone) {
  const std::size_t w = GetParam();
  {
    length_prefix_decoder d(prefix_cfg(w, 10, oversize_policy::fail));
    const std::string h = header(w, 11);
    auto r = d.decode(as_bytes(h).first(w - 1));
    EXPECT_EQ(r.status, decode_status::need_more);
    r = d.decode(as_bytes(h));
    EXPECT_EQ(r.status, decode_status::too_large);
    EXPECT_EQ(r.consumed, 0u);
    EXPECT_TRUE(d.failed());
  }
  {
    length_prefix_decoder d(prefix_cfg(w, 10, oversize_policy::resync));
    auto r = d.decode(as_bytes(header(w, 11)));
    EXPECT_EQ(r.status, decode_status::too_large);
    EXPECT_EQ(r.consumed, w) << "the header is dropped at once";
    EXPECT_TRUE(d.mid_frame()) << "11 payload bytes still to skip";
    EXPECT_FALSE(d.failed());
  }
}

TEST_P(LengthPrefixWidth, ResyncSkipsExactlyTheDeclaredPayload) {
  const std::size_t w = GetParam();
  const auto c = prefix_cfg(w, 8, oversize_policy::resync);
  // The oversize payload is full of bytes that would be valid headers: they must be skipped.
  const std::string junk = header(w, 0) + header(w, 1) + "z" + std::string(20, '\0');
  const std::string input = frame(w, "a") + frame(w, junk) + frame(w, "b") + frame(w, junk) +
                            frame(w, junk) + frame(w, "") + frame(w, "12345678");
  const outcome o = decode_all(c, input);
  EXPECT_EQ(o.events,
            (std::vector<event>{frame_event("a"), too_large_event(), frame_event("b"),
                                too_large_event(), too_large_event(), frame_event(""),
                                frame_event("12345678")}))
      << test::describe(o.events);
  EXPECT_FALSE(o.failed);
  EXPECT_FALSE(o.mid_frame);
  EXPECT_TRUE(o.unconsumed.empty());

  // Ending in the middle of a skipped payload: mid_frame, everything seen consumed.
  const outcome cut = decode_all(c, frame(w, "a") + frame(w, junk).substr(0, w + 5));
  EXPECT_EQ(cut.events, (std::vector<event>{frame_event("a"), too_large_event()}));
  EXPECT_TRUE(cut.mid_frame);
  EXPECT_TRUE(cut.unconsumed.empty());
}

TEST_P(LengthPrefixWidth, FailPolicyIsSticky) {
  const std::size_t w = GetParam();
  const std::string input = frame(w, "ok") + frame(w, std::string(9, 'x')) + frame(w, "later");
  length_prefix_decoder d(prefix_cfg(w, 8, oversize_policy::fail));
  auto r = d.decode(as_bytes(input));
  ASSERT_EQ(r.status, decode_status::frame);
  const std::string rest = input.substr(r.consumed);
  r = d.decode(as_bytes(rest));
  EXPECT_EQ(r.status, decode_status::too_large);
  EXPECT_EQ(r.consumed, 0u);
  for (const std::string& next : {rest, frame(w, "later"), std::string()}) {
    r = d.decode(as_bytes(next));
    EXPECT_EQ(r.status, decode_status::too_large);
    EXPECT_EQ(r.consumed, 0u);
    EXPECT_TRUE(r.frame.empty());
    EXPECT_TRUE(d.failed());
  }

  const outcome o = decode_all(prefix_cfg(w, 8, oversize_policy::fail), input);
  EXPECT_EQ(o.events, (std::vector<event>{frame_event("ok"), too_large_event()}));
  EXPECT_TRUE(o.failed);
  EXPECT_EQ(o.unconsumed, rest);
}

INSTANTIATE_TEST_SUITE_P(Widths, LengthPrefixWidth, ::testing::Values(1u, 2u, 4u, 8u),
                         [](const auto& info) { return "width_" + std::to_string(info.param); });

TEST(LengthPrefixDecoder, BigEndian) {
  // Each width's header read most significant byte first; bytes after the frame are left.
  struct frame_case {
    std::size_t width;
    std::string header;
    std::size_t length;
    std::string after;
  };
  for (const frame_case& c : {frame_case{1, std::string("\xff", 1), 255, ""},
                              frame_case{2, std::string("\x01\x02", 2), 0x0102, ""},
                              frame_case{4, std::string("\x00\x00\x01\x00", 4), 256, "extra"},
                              frame_case{8, std::string("\x00\x00\x00\x00\x00\x00\x01\x01", 8), 257, ""}}) {
    length_prefix_decoder d(prefix_cfg(c.width));
    const std::string buf = c.header + std::string(c.length, 'b') + c.after;
    const auto r = d.decode(as_bytes(buf));
    ASSERT_EQ(r.status, decode_status::frame) << "width " << c.width;
    EXPECT_EQ(r.frame.size(), c.length) << "width " << c.width;
    EXPECT_EQ(r.consumed, c.width + c.length) << "width " << c.width;
  }
  // 0x01000000 with a 4-byte header is 16 MiB, over the default 1 MiB limit: little-endian
  // reading would see 1.
  length_prefix_decoder d(prefix_cfg(4));
  const auto r = d.decode(as_bytes(std::string("\x01\x00\x00\x00", 4) + "x"));
  EXPECT_EQ(r.status, decode_status::too_large);
}

TEST(LengthPrefixDecoder, ResyncSingleCallResults) {
  length_prefix_decoder d(prefix_cfg(2, 4, oversize_policy::resync));
  auto r = d.decode(as_bytes(std::string("\x00\x14", 2) + "abc"));  // 20 bytes declared, 3 here
  EXPECT_EQ(r.status, decode_status::too_large);
  EXPECT_EQ(r.consumed, 5u);
  EXPECT_TRUE(d.mid_frame());

  r = d.decode(as_bytes("0123456789"));  // 10 more: 7 left to skip
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 10u);
  EXPECT_TRUE(d.mid_frame());

  const std::string buf = "6543210" + frame(2, "next") + "\x00";
  r = d.decode(as_bytes(buf));
  ASSERT_EQ(r.status, decode_status::frame);
  EXPECT_EQ(as_text(r.frame), "next");
  EXPECT_EQ(r.consumed, 7u + 6u);
  EXPECT_EQ(r.frame.data(), as_bytes(buf).data() + 9);
  EXPECT_FALSE(d.mid_frame());

  // Skip finished exactly at the end of the data: the drop is reported with need_more.
  length_prefix_decoder d2(prefix_cfg(1, 1, oversize_policy::resync));
  EXPECT_EQ(d2.decode(as_bytes("\x03")).status, decode_status::too_large);
  r = d2.decode(as_bytes("xyz"));
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 3u);
  EXPECT_FALSE(d2.mid_frame());
}

TEST(LengthPrefixDecoder, HugeLengthsAreCorruptAndSticky) {
  const std::uint64_t corrupt_lengths[] = {std::uint64_t{1} << 63, (std::uint64_t{1} << 63) + 1,
                                           0xFFFFFFFFFFFFFFFFull, 0x8000000000000005ull};
  for (std::uint64_t len : corrupt_lengths) {
    for (auto policy : {oversize_policy::fail, oversize_policy::resync}) {
      for (std::size_t max : {std::size_t{1} << 20, SIZE_MAX}) {
        SCOPED_TRACE(::testing::Message() << std::hex << len << " resync="
                                          << (policy == oversize_policy::resync) << " max=" << max);
        length_prefix_decoder d(prefix_cfg(8, max, policy));
        const std::string h = header(8, len);
        EXPECT_EQ(d.decode(as_bytes(h).first(7)).status, decode_status::need_more);
        auto r = d.decode(as_bytes(h + "payload"));
        EXPECT_EQ(r.status, decode_status::corrupt);
        EXPECT_EQ(r.consumed, 0u);
        EXPECT_TRUE(d.failed());
        EXPECT_FALSE(d.mid_frame());
        r = d.decode(as_bytes(frame(8, "ok")));
        EXPECT_EQ(r.status, decode_status::corrupt) << "corrupt is sticky, even under resync";
        EXPECT_EQ(r.consumed, 0u);
      }
    }
  }
  // Through every splitting, after good frames.
  for (auto policy : {oversize_policy::fail, oversize_policy::resync}) {
    const outcome o = decode_all(prefix_cfg(8, 100, policy),
                                 frame(8, "a") + header(8, ~std::uint64_t{0}) + frame(8, "b"));
    EXPECT_EQ(o.events, (std::vector<event>{frame_event("a"), corrupt_event()}));
    EXPECT_TRUE(o.failed);
  }
}

TEST(LengthPrefixDecoder, LargestRepresentableLengthIsTooLargeNotCorrupt) {
  const std::uint64_t len = (std::uint64_t{1} << 63) - 1;
  length_prefix_decoder fail(prefix_cfg(8));
  auto r = fail.decode(as_bytes(header(8, len)));
  EXPECT_EQ(r.status, decode_status::too_large);
  EXPECT_EQ(r.consumed, 0u);

  length_prefix_decoder resync(prefix_cfg(8, 1 << 20, oversize_policy::resync));
  r = resync.decode(as_bytes(header(8, len) + "abc"));
  EXPECT_EQ(r.status, decode_status::too_large);
  EXPECT_EQ(r.consumed, 11u);
  EXPECT_TRUE(resync.mid_frame());
  EXPECT_FALSE(resync.failed());
  r = resync.decode(as_bytes(frame(8, "still skipping")));
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 22u);
  EXPECT_TRUE(resync.mid_frame());
}

TEST(LengthPrefixDecoder, MidFrameOnlyWhileSkipping) {
  length_prefix_decoder d(prefix_cfg(1, 2, oversize_policy::resync));
  EXPECT_FALSE(d.mid_frame());
  EXPECT_EQ(d.decode(as_bytes("\x05" "ab")).status, decode_status::too_large);
  EXPECT_TRUE(d.mid_frame());
  EXPECT_EQ(d.decode(as_bytes("cd")).consumed, 2u);
  EXPECT_TRUE(d.mid_frame());
  EXPECT_EQ(d.decode(as_bytes("e")).consumed, 1u);
  EXPECT_FALSE(d.mid_frame());
}

// A header with a lead byte before the length (gRPC's message: a compressed flag, then 4 bytes):
// the lead comes back with the frame, on the fast path and the general one (split reads), and
// the encoder writes it as a zero for the caller to set.
TEST(LengthPrefixDecoder, LeadBytesBeforeTheLengthComeBackWithTheFrame) {
  length_prefix_config c = prefix_cfg(4, 16);
  c.lead_bytes = 1;
  const std::string stream = std::string("\x01\x00\x00\x00\x03", 5) + "abc" +
                             std::string("\x00\x00\x00\x00\x00", 5) +
                             std::string("\x07\x00\x00\x00\x11", 5);  // 17 > 16
  length_prefix_decoder d(c);
  std::span<const std::byte> data = as_bytes(stream);
  auto r = d.decode(data);
  ASSERT_EQ(r.status, decode_status::frame);
  EXPECT_EQ(as_text(r.frame), "abc");
  EXPECT_EQ(r.consumed, 8u);
  ASSERT_EQ(d.lead_of(r).size(), 1u);
  EXPECT_EQ(d.lead_of(r)[0], std::byte{1});
  data = data.subspan(r.consumed);
  r = d.decode(data.first(4));  // the general path: not all of the header yet
  EXPECT_EQ(r.status, decode_status::need_more);
  r = d.decode(data);
  ASSERT_EQ(r.status, decode_status::frame);
  EXPECT_EQ(r.frame.size(), 0u);
  EXPECT_EQ(d.lead_of(r)[0], std::byte{0});
  EXPECT_EQ(d.decode(data.subspan(r.consumed)).status, decode_status::too_large);
  EXPECT_EQ(d.error(), errc::frame_too_long);

  encoded_frame f;
  ASSERT_FALSE(length_prefix_encoder(c).encode(as_bytes(std::string_view("abc")), f));
  EXPECT_EQ(as_text(f.prefix()), std::string("\x00\x00\x00\x00\x03", 5));
  c.lead_bytes = 9;
  EXPECT_THROW(c.validate(), std::invalid_argument);
}

TEST(LengthPrefixDecoder, RandomStreamsMatchTheModel) {
  std::mt19937 rng(77);
  for (int i = 0; i < 150; ++i) {
    const std::size_t widths[] = {1, 2, 4, 8};
    const std::size_t w = widths[rng() % 4];
    const std::size_t max = std::uniform_int_distribution<std::size_t>(0, 20)(rng);
    const auto c = prefix_cfg(w, max, rng() % 2 ? oversize_policy::fail : oversize_policy::resync);
    std::string input;
    const int frames = std::uniform_int_distribution<int>(0, 8)(rng);
    for (int f = 0; f < frames; ++f) {
      const std::size_t len = std::uniform_int_distribution<std::size_t>(0, max + 4)(rng);
      std::string payload(len, '\0');
      for (char& ch : payload) ch = static_cast<char>(rng() % 3);  // looks like headers
      input += frame(w, payload);
      if (rng() % 10 == 0) input += header(w, rng() % 2 ? ~std::uint64_t{0} : rng());
    }
    if (rng() % 3 == 0) input.resize(input.size() / 2 + 1);
    SCOPED_TRACE(::testing::Message() << "stream #" << i << " width=" << w << " max=" << max
                                      << " resync=" << (c.on_oversize == oversize_policy::resync));
    const length_prefix_decoder prototype(c);
    EXPECT_EQ(check_all_splits(prototype, max, input, 5000u + i, 100), "");
    const auto run = run_whole(prototype, max, input);
    EXPECT_EQ(run.result.events, test::length_prefix_model(c, input))
        << "decoder " << test::describe(run.result.events) << " model "
        << test::describe(test::length_prefix_model(c, input));
  }
}

}  // namespace
}  // namespace wirebench
