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
  std::vector<std::string> transcript;
  mux_frame_decoder decoder(limit);
  std::string pending;
  for (std::string_view read : reads) {
    pending.append(read);
    std::size_t consumed = 0;
    for (;;) {
      const std::size_t before = consumed;
      std::error_code error;
      const auto step = decode_from(decoder, as_bytes(pending), consumed, error);
      const auto* frame = step.status == decode_status::frame ? &step.frame : nullptr;
      if (consumed > pending.size())
        fuzz::fail(target, "consumed " + std::to_string(consumed) + " of " +
                               std::to_string(pending.size()) + " bytes");
      if (error) {
        transcript.push_back("error " + error.message());
        return transcript;
      }
      if (!frame) break;
      encoded_frame again;
      if (auto ec = encode_mux_frame(frame->type, frame->id, frame->payload, limit, again))
        fuzz::fail(target, "a frame read cannot be encoded again: " + ec.message());
      std::string bytes;
      for (auto part : again.buffers()) bytes += as_text(part);
      if (bytes != std::string_view(pending).substr(before, consumed - before))
        fuzz::fail(target, "a frame encoded again differs from its bytes: " + fuzz::printable(bytes));
      transcript.push_back("frame " + std::to_string(int(frame->type)) + " " +
                           std::to_string(frame->id) + " '" + fuzz::printable(as_text(frame->payload)) + "'");
    }
    pending.erase(0, consumed);
  }
  transcript.push_back("end, " + std::to_string(pending.size()) + " bytes unconsumed");
  return transcript;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::input in(data, size, 3);
  const std::size_t limit = fuzz::frame_limit(in.setting(0));
  fuzz::expect_same_whole_and_cut(target, in.stream(), in.setting(1), in.setting(2),
                                  [&](const auto& reads) { return run(limit, reads); });
  return 0;
}
