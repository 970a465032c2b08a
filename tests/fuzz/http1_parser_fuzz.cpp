// libFuzzer target for the HTTP/1.1 parser over llhttp: requests (what our http1 server reads)
// and responses (what our http1 client reads). Input: [flags][pattern][seed] then the stream.
//   flags:   bit 0 responses (else requests), bit 1 do not keep headers,
//            bits 2-4 s: max_header_bytes 64(s+1), max_headers 2(s+1), max_body_bytes 128(s+1)
//   pattern, seed: how the stream is cut into reads for the second run (split_feeder.hpp)
// Each read is parsed, the messages it completed are read and released, as the server does.
// Checked: no message has more headers or body bytes than the limits allow, an error carries
// 400, 413 or 431 and a reason, and the messages and whether (and after which) the stream
// failed are the same whether it came whole or in pieces. Any failure aborts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "protocols/http1/http1_parser.hpp"
#include "wirebench/codec/bytes.hpp"

namespace {

using namespace wirebench;
constexpr const char* target = "http1_parser";

std::vector<std::string> run(http1::parser::kind kind, const http1::limits& limits,
                             bool keep_headers, const std::vector<std::string_view>& reads) {
  http1::parser parser(kind, limits, keep_headers);
  const auto describe = [&](const http1::message& m) {
    if (m.headers.size() > limits.max_headers || m.body.size() > limits.max_body_bytes)
      fuzz::fail(target, "a message with " + std::to_string(m.headers.size()) + " headers and " +
                             std::to_string(m.body.size()) + " body bytes");
    std::string line = "message " + fuzz::printable(m.method) + " " + fuzz::printable(m.target) +
                       " " + std::to_string(m.status) + " keep_alive=" + std::to_string(m.keep_alive);
    for (const auto& [name, value] : m.headers)
      line += " [" + fuzz::printable(name) + ": " + fuzz::printable(value) + "]";
    return line + " body='" + fuzz::printable(m.body) + "'";
  };
  const auto on_error = [&](std::error_code ec) -> std::string {
    const int status = parser.error_status();
    if ((status != 400 && status != 413 && status != 431) || parser.error_reason().empty())
      fuzz::fail(target, "error " + ec.message() + " with status " + std::to_string(status) +
                             " and reason '" + std::string(parser.error_reason()) + "'");
    // That the stream failed there, not how: when a message breaks a limit and is malformed
    // too (or breaks two limits), which one is seen first depends on how much llhttp was given
    // at once: a whole read may reach a syntax error (400) beyond the header bound (431).
    return "error";
  };
  return fuzz::feed_reads(parser, reads, describe, on_error,
                          [&] { return "end, mid_message=" + std::to_string(parser.mid_message()); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::stream_input in(data, size);
  const std::uint8_t flags = in.settings();
  const auto kind = (flags & 1) ? http1::parser::kind::response : http1::parser::kind::request;
  const bool keep_headers = (flags & 2) == 0;
  const std::size_t s = ((flags >> 2) & 7u) + 1;
  const http1::limits limits{
      .max_header_bytes = 64 * s, .max_headers = 2 * s, .max_body_bytes = 128 * s};
  return in.expect_same_whole_and_cut(
      target, [&](const auto& reads) { return run(kind, limits, keep_headers, reads); });
}
