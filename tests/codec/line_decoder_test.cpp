// line_decoder: frames, CR policy, limits, oversize policies, and that the result does not depend
// on how the stream is split into reads.
#include "wirebench/codec/line_decoder.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "codec/split_feeder.hpp"
#include "wirebench/codec/bytes.hpp"

namespace wirebench {
namespace {

using test::check_all_splits;
using test::event;
using test::frame_event;
using test::outcome;
using test::run_bytewise;
using test::run_whole;
using test::too_large_event;

line_decoder_config cfg(std::size_t max, bool strip_cr = true,
                        oversize_policy policy = oversize_policy::fail) {
  return {.max_line_bytes = max, .strip_cr = strip_cr, .on_oversize = policy};
}

// Decodes `input` fed whole and checks every other splitting gives the same outcome.
outcome decode_all(const line_decoder_config& c, std::string_view input) {
  const line_decoder prototype(c);
  EXPECT_EQ(check_all_splits(prototype, c.max_line_bytes, input), "") << "config max="
      << c.max_line_bytes << " strip_cr=" << c.strip_cr
      << " resync=" << (c.on_oversize == oversize_policy::resync);
  const auto run = run_whole(prototype, c.max_line_bytes, input);
  EXPECT_TRUE(run.violations.empty()) << run.violations.front();
  return run.result;
}

std::vector<event> frames(std::initializer_list<std::string_view> lines) {
  std::vector<event> out;
  for (auto l : lines) out.push_back(frame_event(l));
  return out;
}

TEST(LineDecoder, DefaultConfig) {
  const line_decoder_config c;
  EXPECT_EQ(c.max_line_bytes, 64u * 1024u);
  EXPECT_TRUE(c.strip_cr);
  EXPECT_EQ(c.on_oversize, oversize_policy::fail);
  line_decoder d;
  EXPECT_FALSE(d.mid_frame());
  EXPECT_FALSE(d.failed());
}

TEST(LineDecoder, SingleCallResults) {
  line_decoder d(cfg(100));
  const std::string buf = "hello\nworld\n";
  auto r = d.decode(as_bytes(buf));
  EXPECT_EQ(test::step(r), "frame 'hello', consumed 6");
  EXPECT_EQ(r.frame.data(), as_bytes(buf).data()) << "the frame is a view into the caller's buffer";

  r = d.decode(as_bytes(buf).subspan(6));
  EXPECT_EQ(test::step(r), "frame 'world', consumed 6");

  r = d.decode({});
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 0u);
  EXPECT_TRUE(r.frame.empty());
  EXPECT_FALSE(d.mid_frame());
}

TEST(LineDecoder, MidFrame) {
  line_decoder d(cfg(100));
  std::string buf = "par";
  auto r = d.decode(as_bytes(buf));
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 0u);
  EXPECT_TRUE(d.mid_frame());
  buf += "tial\n";
  r = d.decode(as_bytes(buf));
  EXPECT_EQ(test::step(r), "frame 'partial', consumed 8");
  EXPECT_FALSE(d.mid_frame());
}

TEST(LineDecoder, FramesAreTheSameWhateverTheSplit) {
  const std::string input = "hello\nworld\n\nabc\r\nx\ry\n\r\n\r\r\nlast";
  const outcome strip = decode_all(cfg(100, true), input);
  EXPECT_EQ(strip.events, frames({"hello", "world", "", "abc", "x\ry", "", "\r"}))
      << test::describe(strip.events);
  EXPECT_EQ(strip.unconsumed, "last");
  EXPECT_TRUE(strip.mid_frame);
  EXPECT_FALSE(strip.failed);

  const outcome keep = decode_all(cfg(100, false), input);
  EXPECT_EQ(keep.events, frames({"hello", "world", "", "abc\r", "x\ry", "\r", "\r\r"}))
      << test::describe(keep.events);
  EXPECT_EQ(keep.unconsumed, "last");
}

TEST(LineDecoder, StripCr) {
  EXPECT_EQ(decode_all(cfg(10, true), "a\r\n").events, frames({"a"}));
  EXPECT_EQ(decode_all(cfg(10, false), "a\r\n").events, frames({"a\r"}));
  EXPECT_EQ(decode_all(cfg(10, true), "a\n").events, frames({"a"}));
  // Only one '\r' right before the '\n' is framing.
  EXPECT_EQ(decode_all(cfg(10, true), "a\r\r\n").events, frames({"a\r"}));
  EXPECT_EQ(decode_all(cfg(10, true), "\r\n").events, frames({""}));
  EXPECT_EQ(decode_all(cfg(10, false), "\r\n").events, frames({"\r"}));
}

TEST(LineDecoder, LoneCrIsData) {
  for (bool strip : {true, false}) {
    SCOPED_TRACE(strip);
    EXPECT_EQ(decode_all(cfg(10, strip), "a\rb\n").events, frames({"a\rb"}));
    EXPECT_EQ(decode_all(cfg(10, strip), "\ra\n").events, frames({"\ra"}));
    // A '\r' at the end of the buffer is not a frame on its own.
    const outcome o = decode_all(cfg(10, strip), "a\rb\r");
    EXPECT_TRUE(o.events.empty());
    EXPECT_EQ(o.unconsumed, "a\rb\r");
    EXPECT_TRUE(o.mid_frame);
  }
}

TEST(LineDecoder, EmptyLinesAreFramesOfSizeZero) {
  line_decoder d(cfg(10));
  const std::string buf = "\n\n";
  EXPECT_EQ(test::step(d.decode(as_bytes(buf))), "frame '', consumed 1");
  EXPECT_EQ(decode_all(cfg(10), "\n\n\n").events, frames({"", "", ""}));
  EXPECT_EQ(decode_all(cfg(0), "\n\r\n\n").events, frames({"", "", ""}));
}

class LineDecoderLimit : public ::testing::TestWithParam<std::tuple<std::size_t, bool>> {};

TEST_P(LineDecoderLimit, ExactlyNAcceptedNPlusOneRefused) {
  const auto [n, strip] = GetParam();
  const std::string n_bytes(n, 'x');
  const std::string n1_bytes(n + 1, 'x');
  for (auto policy : {oversize_policy::fail, oversize_policy::resync}) {
    SCOPED_TRACE(policy == oversize_policy::fail ? "fail" : "resync");
    const auto c = cfg(n, strip, policy);
    EXPECT_EQ(decode_all(c, n_bytes + "\n").events, frames({n_bytes}));
    EXPECT_EQ(decode_all(c, n1_bytes + "\n").events, std::vector<event>{too_large_event()});
    if (strip) {
      // The '\r' of "\r\n" does not count when it is stripped.
      EXPECT_EQ(decode_all(c, n_bytes + "\r\n").events, frames({n_bytes}));
      EXPECT_EQ(decode_all(c, n1_bytes + "\r\n").events, std::vector<event>{too_large_event()});
      // ...but a second '\r' is data.
      EXPECT_EQ(decode_all(c, n_bytes + "\r\r\n").events, std::vector<event>{too_large_event()});
    } else {
      // Without strip_cr the '\r' is data and counts.
      if (n > 0) {
        const std::string n_minus_1(n - 1, 'x');
        EXPECT_EQ(decode_all(c, n_minus_1 + "\r\n").events, frames({n_minus_1 + "\r"}));
      }
      EXPECT_EQ(decode_all(c, n_bytes + "\r\n").events, std::vector<event>{too_large_event()});
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Limits, LineDecoderLimit,
                         ::testing::Combine(::testing::Values(0u, 1u, 5u, 64u),
                                            ::testing::Bool()),
                         [](const auto& info) {
                           return "limit_" + std::to_string(std::get<0>(info.param)) +
                                  (std::get<1>(info.param) ? "_strip" : "_keep");
                         });

TEST(LineDecoder, TooLargeReportedBeforeTheNewline) {
  for (bool strip : {true, false}) {
    SCOPED_TRACE(strip);
    line_decoder d(cfg(8, strip));
    std::string buf(8, 'x');
    auto r = d.decode(as_bytes(buf));
    EXPECT_EQ(r.status, decode_status::need_more);
    EXPECT_EQ(r.consumed, 0u);
    buf += 'x';  // 9 bytes, no '\n' anywhere
    r = d.decode(as_bytes(buf));
    EXPECT_EQ(r.status, decode_status::too_large);
    EXPECT_EQ(r.consumed, 0u);
    EXPECT_TRUE(d.failed());
  }
}

TEST(LineDecoder, TrailingCrAtTheLimitWaitsForTheNewlineWithStripCr) {
  // N bytes + '\r' may still become "N bytes\r\n": not over the limit yet with strip_cr.
  line_decoder strip(cfg(4, true));
  std::string buf = "abcd\r";
  EXPECT_EQ(strip.decode(as_bytes(buf)).status, decode_status::need_more);
  EXPECT_FALSE(strip.failed());
  buf += "e";  // the '\r' was data after all: 6 bytes of line so far
  EXPECT_EQ(strip.decode(as_bytes(buf)).status, decode_status::too_large);

  line_decoder keep(cfg(4, false));
  EXPECT_EQ(keep.decode(as_bytes("abcd\r")).status, decode_status::too_large);
}

TEST(LineDecoder, FailPolicyIsSticky) {
  line_decoder d(cfg(3, true, oversize_policy::fail));
  auto r = d.decode(as_bytes("ok\ntoolong\nfine\n"));
  EXPECT_EQ(test::step(r), "frame 'ok', consumed 3");
  r = d.decode(as_bytes("toolong\nfine\n"));
  EXPECT_EQ(r.status, decode_status::too_large);
  EXPECT_EQ(r.consumed, 0u);
  EXPECT_TRUE(d.failed());
  for (std::string_view next : {"toolong\nfine\n", "fine\n", "", "a\n"}) {
    r = d.decode(as_bytes(next));
    EXPECT_EQ(r.status, decode_status::too_large) << next;
    EXPECT_EQ(r.consumed, 0u);
    EXPECT_TRUE(r.frame.empty());
    EXPECT_TRUE(d.failed());
  }

  const outcome o = decode_all(cfg(3, true, oversize_policy::fail), "ok\ntoolong\nfine\n");
  EXPECT_EQ(o.events, (std::vector<event>{frame_event("ok"), too_large_event()}));
  EXPECT_TRUE(o.failed);
  EXPECT_EQ(o.unconsumed, "toolong\nfine\n");
}

TEST(LineDecoder, ResyncDiscardsTheLongLineAndContinues) {
  const auto c = cfg(3, true, oversize_policy::resync);
  const outcome o = decode_all(c, "ok\nway too long\nfin\r\nabc\nabcd\n\nend\n");
  EXPECT_EQ(o.events, (std::vector<event>{frame_event("ok"), too_large_event(), frame_event("fin"),
                                          frame_event("abc"), too_large_event(), frame_event(""),
                                          frame_event("end")}))
      << test::describe(o.events);
  EXPECT_FALSE(o.failed);
  EXPECT_FALSE(o.mid_frame);
  EXPECT_TRUE(o.unconsumed.empty());

  // Byte by byte explicitly (decode_all also does it): too_large once, not once per byte.
  const auto bytewise = run_bytewise(line_decoder(c), 3, "x\n0123456789abcdef\ny\n");
  EXPECT_TRUE(bytewise.violations.empty());
  EXPECT_EQ(bytewise.result.events,
            (std::vector<event>{frame_event("x"), too_large_event(), frame_event("y")}));
}

TEST(LineDecoder, ResyncConsecutiveAndUnfinishedLongLines) {
  const auto c = cfg(2, false, oversize_policy::resync);
  const outcome o = decode_all(c, "aaaa\nbbbb\ncc\ndddddddd");
  EXPECT_EQ(o.events, (std::vector<event>{too_large_event(), too_large_event(), frame_event("cc"),
                                          too_large_event()}));
  EXPECT_TRUE(o.mid_frame) << "still discarding the unfinished long line";
  EXPECT_TRUE(o.unconsumed.empty()) << "discarded bytes are consumed";
  EXPECT_FALSE(o.failed);
}

TEST(LineDecoder, ResyncSingleCallResults) {
  line_decoder d(cfg(4, true, oversize_policy::resync));
  auto r = d.decode(as_bytes("abcde"));
  EXPECT_EQ(r.status, decode_status::too_large);
  EXPECT_EQ(r.consumed, 5u);
  EXPECT_TRUE(d.mid_frame());
  EXPECT_FALSE(d.failed());

  r = d.decode(as_bytes("fgh"));
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 3u);
  EXPECT_TRUE(d.mid_frame());

  const std::string buf = "ij\nnext\nmore";
  r = d.decode(as_bytes(buf));
  ASSERT_EQ(r.status, decode_status::frame);
  EXPECT_EQ(as_text(r.frame), "next");
  EXPECT_EQ(r.consumed, 8u) << "the discarded \"ij\\n\" and the frame \"next\\n\"";
  EXPECT_EQ(r.frame.data(), as_bytes(buf).data() + 3);
  EXPECT_FALSE(d.mid_frame());

  // Discarded up to the '\n', then nothing complete: the drop is still reported.
  line_decoder d2(cfg(1, true, oversize_policy::resync));
  EXPECT_EQ(d2.decode(as_bytes("xyz")).status, decode_status::too_large);
  r = d2.decode(as_bytes("z\nw"));
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 2u);
  EXPECT_TRUE(d2.mid_frame()) << "\"w\" has been seen";

  // An empty read while discarding (a span with no data at all).
  line_decoder d4(cfg(1, true, oversize_policy::resync));
  EXPECT_EQ(d4.decode(as_bytes("xyz")).status, decode_status::too_large);
  r = d4.decode(std::span<const std::byte>{});
  EXPECT_EQ(r.status, decode_status::need_more);
  EXPECT_EQ(r.consumed, 0u);
  EXPECT_TRUE(d4.mid_frame());

  // A complete oversize line in one buffer is consumed with its '\n'.
  line_decoder d3(cfg(1, true, oversize_policy::resync));
  r = d3.decode(as_bytes("abc\r\nd\n"));
  EXPECT_EQ(r.status, decode_status::too_large);
  EXPECT_EQ(r.consumed, 5u);
  EXPECT_FALSE(d3.mid_frame());
}

TEST(LineDecoder, DoesNotRescanBytesAlreadySearched) {
  // The decoder remembers how far it searched. To observe it, overwrite a byte it has already
  // searched with '\n' (a caller must not do this): a decoder that rescans would now find it.
  line_decoder d(cfg(100));
  std::string buf = "abcd";
  EXPECT_EQ(d.decode(as_bytes(buf)).status, decode_status::need_more);
  buf[1] = '\n';
  buf += "ef\n";
  const auto r = d.decode(as_bytes(buf));
  ASSERT_EQ(r.status, decode_status::frame);
  EXPECT_EQ(r.consumed, 7u) << "only the bytes after the first 4 were searched";
  EXPECT_EQ(as_text(r.frame), std::string_view("a\ncdef"));
}

TEST(LineDecoder, OneMebibyteLineByteByByte) {
  constexpr std::size_t mib = 1 << 20;
  std::string line(mib, 'x');
  for (std::size_t i = 0; i < mib; i += 4093) line[i] = static_cast<char>('a' + i % 26);
  line[mib / 2] = '\r';  // data, not framing

  for (bool strip : {true, false}) {
    SCOPED_TRACE(strip);
    test::split_feeder<line_decoder> feeder(line_decoder(cfg(mib, strip)), mib);
    for (char c : line) feeder.feed(std::string_view(&c, 1));
    EXPECT_TRUE(feeder.events().empty());
    EXPECT_TRUE(feeder.decoder().mid_frame());
    feeder.feed(strip ? "\r\n" : "\n");
    ASSERT_TRUE(feeder.violations().empty()) << feeder.violations().front();
    ASSERT_EQ(feeder.events().size(), 1u);
    EXPECT_EQ(feeder.events()[0].status, decode_status::frame);
    EXPECT_TRUE(feeder.events()[0].bytes == line) << "the 1 MiB frame differs";
    // One decode() call per byte (plus the final one): each call only looked at the new byte, as
    // shown by DoesNotRescanBytesAlreadySearched.
    EXPECT_EQ(feeder.decode_calls(), mib + 2u);
  }
}

TEST(LineDecoder, OneMebibytePlusOneRefusedAtTheExactByte) {
  constexpr std::size_t mib = 1 << 20;
  for (auto policy : {oversize_policy::fail, oversize_policy::resync}) {
    test::split_feeder<line_decoder> feeder(line_decoder(cfg(mib, false, policy)), mib);
    const char x = 'x';
    for (std::size_t i = 0; i < mib; ++i) feeder.feed(std::string_view(&x, 1));
    EXPECT_TRUE(feeder.events().empty());
    feeder.feed(std::string_view(&x, 1));  // byte N+1, no '\n' yet
    ASSERT_EQ(feeder.events().size(), 1u);
    EXPECT_EQ(feeder.events()[0].status, decode_status::too_large);
    feeder.feed("x\nok\n");
    const outcome o = feeder.finish();
    EXPECT_TRUE(feeder.violations().empty());
    if (policy == oversize_policy::resync)
      EXPECT_EQ(o.events, (std::vector<event>{too_large_event(), frame_event("ok")}));
    else
      EXPECT_EQ(o.events, std::vector<event>{too_large_event()});
  }
}

TEST(LineDecoder, RandomStreamsMatchTheModel) {
  std::mt19937 rng(2024);
  const char alphabet[] = {'a', 'b', '\r', '\n', '\n', 'c', '\r', '\0'};
  for (int i = 0; i < 150; ++i) {
    const auto c = cfg(std::uniform_int_distribution<std::size_t>(0, 12)(rng), rng() % 2 == 0,
                       rng() % 2 == 0 ? oversize_policy::fail : oversize_policy::resync);
    std::string input(std::uniform_int_distribution<std::size_t>(0, 120)(rng), 'a');
    for (char& ch : input) ch = alphabet[rng() % sizeof alphabet];
    SCOPED_TRACE(::testing::Message() << "stream #" << i << " max=" << c.max_line_bytes
                                      << " strip=" << c.strip_cr << " resync="
                                      << (c.on_oversize == oversize_policy::resync));
    const line_decoder prototype(c);
    EXPECT_EQ(check_all_splits(prototype, c.max_line_bytes, input, 1000u + i, 100), "");
    const auto run = run_whole(prototype, c.max_line_bytes, input);
    EXPECT_EQ(run.result.events, test::line_model(c, input))
        << "decoder " << test::describe(run.result.events) << " model "
        << test::describe(test::line_model(c, input));
  }
}

}  // namespace
}  // namespace wirebench
