// libFuzzer target for the RESP request parser (what our resp server reads from any client).
// Input: [limits][pattern][seed] then the stream.
//   limits:  s = (limits & 15) + 1: max_bulk_bytes 16s, max_inline_bytes 16s, max_query_bytes 64s;
//            max_multibulk_elements (limits >> 4) + 1
//   pattern, seed: how the stream is cut into reads for the second run (split_feeder.hpp)
// Driven as resp_server drives it: each read is appended to the unconsumed bytes, which are
// parsed until need_more, dropping `consumed` each time. Checked: consumed never exceeds the bytes
// given; a command has 1 to max_multibulk_elements arguments (an inline one: as many as its
// line holds), each within the bulk limit (or the inline one); what stays unconsumed after
// need_more is under the query bound; and the commands
// and the error (code and Redis's text) are the same whether the stream came whole or in pieces.
// Any failure aborts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "protocols/resp/resp_request_parser.hpp"
#include "wirebench/codec/bytes.hpp"

namespace {

using namespace wirebench;
constexpr const char* target = "resp_request_parser";

std::vector<std::string> run(const resp::request_limits& limits,
                             const std::vector<std::string_view>& reads) {
  std::vector<std::string> transcript;
  resp::request_parser parser(limits);
  std::string pending;
  for (std::string_view read : reads) {
    pending.append(read);
    for (;;) {
      const auto r = parser.decode(as_bytes(pending));
      if (r.consumed > pending.size())
        fuzz::fail(target, "consumed " + std::to_string(r.consumed) + " of " +
                               std::to_string(pending.size()) + " bytes");
      if (r.status == decode_status::corrupt || r.status == decode_status::too_large) {
        transcript.push_back("error " + parser.error().message() + ": " +
                             std::string(parser.error_message()));
        return transcript;
      }
      if (r.status == decode_status::need_more) {
        pending.erase(0, r.consumed);
        if (pending.size() >= limits.max_query_bytes)
          fuzz::fail(target, std::to_string(pending.size()) +
                                 " unconsumed bytes waiting, over the query bound");
        break;
      }
      const auto args = r.frame;
      // Multibulk arguments are views into the caller's bytes; inline ones live in the parser,
      // and have no element bound but their line's.
      const bool multibulk = !args.empty() && args[0].data() >= pending.data() &&
                             args[0].data() <= pending.data() + pending.size();
      if (args.empty() || (multibulk && args.size() > limits.max_multibulk_elements))
        fuzz::fail(target, "a command with " + std::to_string(args.size()) + " arguments");
      std::string line = "command";
      for (std::string_view arg : args) {
        if (arg.size() > std::max(limits.max_bulk_bytes, limits.max_inline_bytes))
          fuzz::fail(target, "a " + std::to_string(arg.size()) + "-byte argument");
        line += " '" + fuzz::printable(arg) + "'";
      }
      transcript.push_back(std::move(line));
      pending.erase(0, r.consumed);
    }
  }
  transcript.push_back("end, mid_command=" + std::to_string(parser.mid_command()));
  return transcript;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::stream_input in(data, size);
  const std::size_t scale = (in.settings() & 15u) + 1;
  const resp::request_limits limits{.max_bulk_bytes = 16 * scale,
                                    .max_multibulk_elements = (in.settings() >> 4) + 1u,
                                    .max_inline_bytes = 16 * scale,
                                    .max_query_bytes = 64 * scale};
  return in.expect_same_whole_and_cut(target, [&](const auto& reads) { return run(limits, reads); });
}
