// gather_queue: coalescing of small frames, zero-copy segments for large payloads, exact bytes.
#include "wirebench/core/gather_queue.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/length_prefix_encoder.hpp"
#include "wirebench/codec/line_encoder.hpp"

namespace wirebench {
namespace {

std::vector<std::span<const std::byte>> segments(const gather_queue& q) {
  std::vector<std::span<const std::byte>> out;
  q.for_each_segment([&](std::span<const std::byte> s) { out.push_back(s); });
  EXPECT_EQ(out.size(), q.segment_count());
  return out;
}

std::string concat(const gather_queue& q) {
  std::string out;
  for (auto s : segments(q)) {
    EXPECT_FALSE(s.empty()) << "empty segment (a useless iovec)";
    out += as_text(s);
  }
  EXPECT_EQ(out.size(), q.bytes());
  return out;
}

encoded_frame line_frame(std::string_view payload) {
  encoded_frame f;
  EXPECT_FALSE(line_encoder().encode(as_bytes(payload), f));
  return f;
}

TEST(GatherQueue, StartsEmpty) {
  gather_queue q;
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.bytes(), 0u);
  EXPECT_EQ(q.frames(), 0u);
  EXPECT_EQ(q.segment_count(), 0u);
  EXPECT_EQ(concat(q), "");
}

TEST(GatherQueue, SmallFramesCoalesceIntoOneSegment) {
  gather_queue q;
  std::string expected;
  for (int i = 0; i < 100; ++i) {
    const std::string payload = "reply " + std::to_string(i);
    q.append(line_frame(payload));
    expected += payload + "\n";
  }
  EXPECT_EQ(q.segment_count(), 1u);
  EXPECT_EQ(q.frames(), 100u);
  EXPECT_EQ(q.bytes(), expected.size());
  EXPECT_FALSE(q.empty());
  EXPECT_EQ(concat(q), expected);
}

TEST(GatherQueue, EncodedFramesAreCopied) {
  gather_queue q;
  std::string payload = "volatile";
  encoded_frame f;
  length_prefix_config c;
  c.header_bytes = 2;
  ASSERT_FALSE(length_prefix_encoder(c).encode(as_bytes(payload), f));
  q.append(f);
  payload.assign("XXXXXXXX");  // the caller reuses its buffer: the queue must hold a copy
  EXPECT_EQ(concat(q), std::string("\x00\x08", 2) + "volatile");
  for (auto s : segments(q)) EXPECT_NE(s.data(), as_bytes(payload).data());
}

// Every prefix length the frame can carry (0 to 16) and every suffix length (0 to 2), around
// payloads of 0, 1 and 9 bytes: each byte lands where it belongs (short copies take other paths).
TEST(GatherQueue, EveryPrefixAndSuffixLengthIsCopiedExactly) {
  for (std::size_t prefix = 0; prefix <= 16; ++prefix)
    for (std::size_t suffix = 0; suffix <= 2; ++suffix)
      for (std::string_view payload : {"", "p", "123456789"}) {
        encoded_frame f;
        std::string expected;
        for (std::size_t i = 0; i < prefix; ++i) {
          f.prefix_bytes[i] = std::byte('a' + i);
          expected += static_cast<char>('a' + i);
        }
        f.prefix_size = static_cast<std::uint8_t>(prefix);
        f.payload = as_bytes(payload);
        expected += payload;
        for (std::size_t i = 0; i < suffix; ++i) {
          f.suffix_bytes[i] = std::byte('X' + i);
          expected += static_cast<char>('X' + i);
        }
        f.suffix_size = static_cast<std::uint8_t>(suffix);
        gather_queue q;
        q.append_bytes(as_bytes(std::string_view("<")));
        q.append(f);
        q.append_bytes(as_bytes(std::string_view(">")));
        EXPECT_EQ(concat(q), "<" + expected + ">") << prefix << " " << suffix << " " << payload;
      }
}

TEST(GatherQueue, LargeStringPayloadIsItsOwnSegmentAndNotCopied) {
  gather_queue q;
  q.append(line_frame("before"));
  std::string big(gather_queue::copy_threshold + 1, 'B');
  big.front() = '<';
  big.back() = '>';
  const char* big_data = big.data();  // heap storage: above the small-string size
  const std::string big_copy = big;
  const std::string prefix = "PFX";
  const std::string suffix = "\r\n";
  q.append(as_bytes(prefix), std::move(big), as_bytes(suffix));
  q.append(line_frame("after"));

  const auto segs = segments(q);
  ASSERT_EQ(segs.size(), 3u) << "arena (before + prefix), the payload, arena (suffix + after)";
  EXPECT_EQ(reinterpret_cast<const char*>(segs[1].data()), big_data)
      << "the large payload's bytes were copied";
  EXPECT_EQ(segs[1].size(), big_copy.size());
  EXPECT_EQ(as_text(segs[0]), "before\nPFX");
  EXPECT_EQ(as_text(segs[2]), "\r\nafter\n");
  EXPECT_EQ(concat(q), "before\nPFX" + big_copy + "\r\nafter\n");
  EXPECT_EQ(q.frames(), 3u);
  EXPECT_EQ(q.bytes(), 7 + 3 + big_copy.size() + 2 + 6);
}

TEST(GatherQueue, PayloadAtTheThresholdIsCoalesced) {
  gather_queue q;
  std::string at(gather_queue::copy_threshold, 'a');
  const std::string at_copy = at;
  q.append({}, std::move(at), as_bytes("\n"));
  q.append(line_frame("x"));
  EXPECT_EQ(q.segment_count(), 1u);
  EXPECT_EQ(concat(q), at_copy + "\nx\n");
  EXPECT_EQ(q.frames(), 2u);
}

TEST(GatherQueue, ManyLargePayloadsKeepTheirStorageAndOrder) {
  gather_queue q;
  std::vector<const char*> data;
  std::string expected;
  for (int i = 0; i < 20; ++i) {
    std::string big(gather_queue::copy_threshold + 1 + static_cast<std::size_t>(i) * 100,
                    static_cast<char>('a' + i));
    data.push_back(big.data());
    const std::string hdr = "#" + std::to_string(i);
    expected += hdr + big;
    q.append(as_bytes(hdr), std::move(big), {});
  }
  const auto segs = segments(q);
  ASSERT_EQ(segs.size(), 40u);  // header, payload, header, payload, ...
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(reinterpret_cast<const char*>(segs[2 * i + 1].data()), data[i]) << i;
  EXPECT_EQ(concat(q), expected);
  EXPECT_EQ(q.frames(), 20u);
}

TEST(GatherQueue, LargePayloadWithoutPrefixOrSuffix) {
  gather_queue q;
  std::string big(5000, 'z');
  const char* p = big.data();
  q.append({}, std::move(big), {});
  ASSERT_EQ(q.segment_count(), 1u);
  EXPECT_EQ(reinterpret_cast<const char*>(segments(q)[0].data()), p);
  EXPECT_EQ(q.bytes(), 5000u);
  EXPECT_EQ(q.frames(), 1u);
}

TEST(GatherQueue, AppendBytes) {
  gather_queue q;
  q.append_bytes(as_bytes("raw"));
  q.append_bytes(as_bytes("more"));
  EXPECT_EQ(q.frames(), 2u);
  EXPECT_EQ(q.segment_count(), 1u);
  EXPECT_EQ(concat(q), "rawmore");
  q.append_bytes({});
  EXPECT_EQ(q.frames(), 3u);
  EXPECT_EQ(q.bytes(), 7u);
  EXPECT_EQ(q.segment_count(), 1u);
}

TEST(GatherQueue, ArenaGrowthKeepsSegmentsValid) {
  gather_queue q;
  std::string expected;
  // Interleave arena appends (forcing reallocations) with owned segments.
  for (int i = 0; i < 200; ++i) {
    const std::string small(static_cast<std::size_t>(i % 50), static_cast<char>('0' + i % 10));
    q.append(line_frame(small));
    expected += small + "\n";
    if (i % 37 == 0) {
      std::string big(2000, static_cast<char>('A' + i % 26));
      expected += big;
      q.append({}, std::move(big), {});
    }
  }
  EXPECT_EQ(concat(q), expected);
  EXPECT_EQ(q.segment_count(), 2u * 6u + 1u);  // i = 0, 37, 74, 111, 148, 185
}

TEST(GatherQueue, ClearEmptiesAndTheQueueIsReusable) {
  gather_queue q;
  q.append(line_frame("one"));
  q.append({}, std::string(3000, 'x'), {});
  q.clear();
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.bytes(), 0u);
  EXPECT_EQ(q.frames(), 0u);
  EXPECT_EQ(q.segment_count(), 0u);
  EXPECT_EQ(concat(q), "");

  q.append(line_frame("two"));
  q.append(line_frame("three"));
  EXPECT_EQ(q.segment_count(), 1u);
  EXPECT_EQ(concat(q), "two\nthree\n");
  EXPECT_EQ(q.frames(), 2u);
}

// Bytes written in place join the arena's tail: with frames appended around them, still one iovec,
// across the arena's growth (the first holds 256 bytes; 300 frames of 9 bytes outgrow it).
TEST(GatherQueue, BytesWrittenInPlaceCoalesceWithCopiedFrames) {
  gather_queue q;
  std::string expected;
  for (int i = 0; i < 300; ++i) {
    const std::string name = "n" + std::to_string(i % 10);
    std::byte* at = q.append_in_place(4);
    std::memcpy(at, "req:", 4);
    q.append(line_frame(name));
    expected += "req:" + name + "\n";
  }
  EXPECT_EQ(q.frames(), 600u);
  EXPECT_EQ(q.segment_count(), 1u);
  EXPECT_EQ(concat(q), expected);
  q.clear();
  std::memcpy(q.append_in_place(3), "abc", 3);
  EXPECT_EQ(concat(q), "abc");
}

// A moved-from queue is empty and usable; swap exchanges everything (the connection swaps its
// pending and writing queues before each write).
TEST(GatherQueue, MoveLeavesAnEmptyQueueAndSwapExchanges) {
  gather_queue a;
  a.append(line_frame("one"));
  a.append(as_bytes(std::string_view("x")), std::string(2000, 'y'), {});
  gather_queue b(std::move(a));
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.segment_count(), 0u);
  a.append(line_frame("two"));
  EXPECT_EQ(concat(a), "two\n");
  EXPECT_EQ(concat(b), "one\nx" + std::string(2000, 'y'));
  a.swap(b);
  EXPECT_EQ(concat(b), "two\n");
  EXPECT_EQ(a.frames(), 2u);
  b = std::move(a);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(b.bytes(), 4u + 1 + 2000);
}

}  // namespace
}  // namespace wirebench
