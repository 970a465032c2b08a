// libFuzzer target for gRPC's message framing (what our gRPC server and client read from each
// stream's DATA): grpc_message_decoder over a stream of messages. Input: [limit][pattern][seed]
// then the stream.
//   limit:   the largest message (0..127, or (limit & 0x7f) * 61 when the top bit is set)
//   pattern, seed: how the stream is cut into reads for the second run (split_feeder.hpp)
// Each read is appended to the unconsumed bytes, which are decoded until more are needed, as a
// stream's reader does. Checked: consumed never exceeds the bytes given; no message is over the
// limit; every message, its prefix written again with append_grpc_prefix, is exactly the bytes it
// was read from; and the messages and the error are the same whether the stream came whole or in pieces.
// Any failure aborts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "protocols/grpc/grpc_message.hpp"
#include "wirebench/codec/bytes.hpp"

namespace {

using namespace wirebench;
constexpr const char* target = "grpc_message";

std::vector<std::string> run(std::size_t limit, const std::vector<std::string_view>& reads) {
  grpc_wire::grpc_message_decoder decoder(limit);
  return fuzz::decode_reads(target, decoder, reads, [&](const grpc_wire::grpc_message& m,
                                                        std::string_view read_from) {
    if (m.bytes.size() > limit)
      fuzz::fail(target, "a " + std::to_string(m.bytes.size()) + "-byte message, limit " +
                             std::to_string(limit));
    std::string again;
    grpc_wire::append_grpc_prefix(m.bytes.size(), m.compressed, again);
    again.append(as_text(m.bytes));
    if (again != read_from)
      fuzz::fail(target, "a message encoded again differs from its bytes: " + fuzz::printable(again));
    return std::string(m.compressed ? "compressed '" : "message '") +
           fuzz::printable(as_text(m.bytes)) + "'";
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return fuzz::run_limited_stream(target, data, size, run);
}
