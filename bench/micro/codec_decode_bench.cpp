// Decode throughput of both framings over a 1 MiB buffer of N-byte frames, beside a memchr-only
// scan of the same buffer: the floor any newline decoder is measured against.
#include <cstring>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/codec/line_decoder.hpp"

namespace wirebench {
namespace {

constexpr std::size_t buffer_target = 1 << 20;

// Frames of `frame_bytes` payload bytes, each followed by '\n'.
std::vector<std::byte> line_buffer(std::size_t frame_bytes) {
  std::vector<std::byte> out;
  while (out.size() < buffer_target) {
    for (std::size_t i = 0; i < frame_bytes; ++i) out.push_back(std::byte('a' + i % 26));
    out.push_back(std::byte{'\n'});
  }
  return out;
}

std::vector<std::byte> length_prefix_buffer(std::size_t frame_bytes) {
  std::vector<std::byte> out;
  while (out.size() < buffer_target) {
    for (int shift = 24; shift >= 0; shift -= 8)
      out.push_back(static_cast<std::byte>((frame_bytes >> shift) & 0xff));
    for (std::size_t i = 0; i < frame_bytes; ++i) out.push_back(std::byte('a' + i % 26));
  }
  return out;
}

// Bytes/s is reported only where the decoder reads every byte: the length-prefix decoder reads
// the header and skips the payload, so bytes/s there would grow with the frame size and measure
// nothing (it reports frames/s only).
enum class reads_payload : bool { no, yes };

template <class Decoder>
void decode_all(benchmark::State& state, const std::vector<std::byte>& buffer, reads_payload reads,
                Decoder make) {
  std::size_t frames = 0;
  for (auto _ : state) {
    auto decoder = make();
    std::span<const std::byte> rest(buffer);
    for (;;) {
      auto r = decoder.decode(rest);
      if (r.status != decode_status::frame) break;
      benchmark::DoNotOptimize(r.frame.data());
      rest = rest.subspan(r.consumed);
      ++frames;
    }
  }
  if (reads == reads_payload::yes)
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * buffer.size()));
  state.counters["frames_per_s"] =
      benchmark::Counter(static_cast<double>(frames), benchmark::Counter::kIsRate);
}

void line_decode(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto buffer = line_buffer(n);
  decode_all(state, buffer, reads_payload::yes, [n] {
    return line_decoder({n, false, oversize_policy::fail});
  });
}

void length_prefix_decode(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto buffer = length_prefix_buffer(n);
  decode_all(state, buffer, reads_payload::no, [n] {
    return length_prefix_decoder({4, n, oversize_policy::fail});
  });
}

// The floor: find every '\n' with memchr and nothing else.
void memchr_scan(benchmark::State& state) {
  const auto buffer = line_buffer(static_cast<std::size_t>(state.range(0)));
  std::size_t frames = 0;
  for (auto _ : state) {
    const std::byte* p = buffer.data();
    const std::byte* end = p + buffer.size();
    while (p < end) {
      const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
      if (nl == nullptr) break;
      benchmark::DoNotOptimize(nl);
      p = static_cast<const std::byte*>(nl) + 1;
      ++frames;
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * buffer.size()));
  state.counters["frames_per_s"] =
      benchmark::Counter(static_cast<double>(frames), benchmark::Counter::kIsRate);
}

void frame_sizes(benchmark::internal::Benchmark* b) {
  b->ArgName("frame_bytes");
  for (std::int64_t n : {16, 32, 64, 256, 1024, 4096, 16384, 65536}) b->Arg(n);
}

BENCHMARK(line_decode)->Apply(frame_sizes);
BENCHMARK(length_prefix_decode)->Apply(frame_sizes);
BENCHMARK(memchr_scan)->Apply(frame_sizes);

}  // namespace
}  // namespace wirebench
