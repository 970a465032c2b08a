// libFuzzer target for line_decoder. Input: [limit][flags][pattern][seed] then the stream.
//   limit:   max_line_bytes (0..127, or (limit & 0x7f) * 61 when the top bit is set)
//   flags:   bit 0 strip_cr, bit 1 resync instead of fail
//   pattern, seed: how the stream is split for the second run (see split_feeder.hpp)
// The stream is decoded whole and split; the two outcomes (frames, errors, unconsumed bytes) must
// be identical, no frame may exceed the limit or hold a '\n', consumed never exceeds the bytes
// given, and the frames must be those of the reference model (split_feeder.hpp). Any failure aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "codec/split_feeder.hpp"
#include "fuzz_support.hpp"
#include "wirebench/codec/line_decoder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace wirebench;
  const fuzz::decoder_input in(data, size);
  const std::uint8_t flags = in.flags();
  const line_decoder_config config{
      .max_line_bytes = in.limit(),
      .strip_cr = (flags & 1) != 0,
      .on_oversize = (flags & 2) ? oversize_policy::resync : oversize_policy::fail};

  const std::string problem = fuzz::check_decoder(
      line_decoder(config), config.max_line_bytes, in, test::line_model(config, in.stream()),
      [](const test::outcome& whole) -> std::string {
        for (const auto& e : whole.events)
          if (e.bytes.find('\n') != std::string::npos) return "a frame holds a '\\n'";
        return {};
      });
  if (problem.empty()) return 0;
  std::fprintf(stderr, "line_decoder fuzz (max=%zu strip_cr=%d resync=%d, %zu bytes): %s\n",
               config.max_line_bytes, config.strip_cr ? 1 : 0, (flags & 2) ? 1 : 0, in.stream().size(),
               problem.c_str());
  std::abort();
}
