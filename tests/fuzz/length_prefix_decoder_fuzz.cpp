// libFuzzer target for length_prefix_decoder. Input: [limit][flags][pattern][seed] then the stream.
//   limit:   max_frame_bytes (0..127, or (limit & 0x7f) * 61 when the top bit is set)
//   flags:   bits 0-1 header width (1, 2, 4, 8), bit 2 resync instead of fail, bit 3 one lead
//            byte before the length (as gRPC's compressed flag)
//   pattern, seed: how the stream is split for the second run (see split_feeder.hpp)
// The stream is decoded whole and split; the two outcomes (frames, errors, unconsumed bytes) must
// be identical, no frame may exceed the limit, consumed never exceeds the bytes given, the frames
// plus their headers never add up to more than the stream, and the frames must be those of the
// reference model (split_feeder.hpp). Any failure aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "codec/split_feeder.hpp"
#include "fuzz_support.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace wirebench;
  const fuzz::decoder_input in(data, size);
  const std::uint8_t flags = in.flags();
  const length_prefix_config config{
      .header_bytes = std::size_t{1} << (flags & 3),
      .max_frame_bytes = in.limit(),
      .on_oversize = (flags & 4) ? oversize_policy::resync : oversize_policy::fail,
      .lead_bytes = (flags & 8) ? 1u : 0u};

  const std::string problem = fuzz::check_decoder(
      length_prefix_decoder(config), config.max_frame_bytes, in,
      test::length_prefix_model(config, in.stream()), [&](const test::outcome& whole) -> std::string {
        std::size_t framed = whole.unconsumed.size();
        for (const auto& e : whole.events)
          if (e.status == decode_status::frame)
            framed += config.lead_bytes + config.header_bytes + e.bytes.size();
        if (framed <= in.stream().size()) return {};
        return "frames + headers + unconsumed = " + std::to_string(framed) + " > " +
               std::to_string(in.stream().size());
      });
  if (problem.empty()) return 0;
  std::fprintf(stderr,
               "length_prefix_decoder fuzz (lead=%zu width=%zu max=%zu resync=%d, %zu bytes): %s\n",
               config.lead_bytes, config.header_bytes, config.max_frame_bytes, (flags & 4) ? 1 : 0,
               in.stream().size(), problem.c_str());
  std::abort();
}
