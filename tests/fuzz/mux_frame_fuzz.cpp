// libFuzzer target for the mux frame (what our mux server and client read): mux_frame_decoder over a
// stream of length-prefixed frames. Input: [limit][pattern][seed] then the stream.
//   limit:   the largest frame payload after the mux header (0..127, or (limit & 0x7f) * 61 when
//            the top bit is set), as a mux peer configures its decoder
//   pattern, seed: how the stream is cut into reads for the second run (split_feeder.hpp)
// Each read is appended to the unconsumed bytes, which are decoded until more are needed, as a
// connection does. Checked: consumed never exceeds the bytes given; every frame, encoded again
// with encode_mux_frame, is exactly the bytes it was read from; and the frames and the error are
// the same whether the stream came whole or in pieces. Any failure aborts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/mux/mux_frame.hpp"

namespace {

using namespace wirebench;
constexpr const char* target = "mux_frame";

std::vector<std::string> run(std::size_t limit, const std::vector<std::string_view>& reads) {
  mux_frame_decoder decoder(limit);
  return fuzz::decode_reads(target, decoder, reads, [&](const mux_frame& frame,
                                                        std::string_view read_from) {
    encoded_frame again;
    if (auto ec = encode_mux_frame(frame.type, frame.id, frame.payload, limit, again))
      fuzz::fail(target, "a frame read cannot be encoded again: " + ec.message());
    if (fuzz::gathered(again) != read_from)
      fuzz::fail(target, "a frame encoded again differs from its bytes: " +
                             fuzz::printable(fuzz::gathered(again)));
    return "frame " + std::to_string(int(frame.type)) + " " + std::to_string(frame.id) + " '" +
           fuzz::printable(as_text(frame.payload)) + "'";
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fuzz::run_limited_stream(target, data, size, run);
}
