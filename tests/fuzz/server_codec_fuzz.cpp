// libFuzzer target for every server codec (the registry's server_codecs: line, length-prefixed,
// mux, msgpack-rpc, http1, http2, resp, and each protocol whose server runs on the session server as a codec), fed what a
// hostile client might send. Input: [protocol][flags][pattern][seed] then the client's bytes.
//   protocol: which codec: "@name\n" (the seeds), or one byte, modulo how many there are
//             (codec_fuzz_support.hpp's pick)
//   flags:    bit 3 a 64-byte request limit (else 4 KiB), bit 4 oversize frames answered with an
//             error and skipped (resync) rather than closing
//   pattern, seed: how the bytes are cut into reads for the second run (split_feeder.hpp)
// The codec is driven as codec_session drives it: each read is appended to the unconsumed bytes,
// requests are decoded one at a time, each call answered at once (encode_reply, in order), and
// produce() runs before each "write"; the read buffer holds at most max_read_bytes(), as a
// connection's does; the server is sized for many callers (protocol_capabilities::fit_server_to_load), so no
// stream limit is reached. Checked: consumed never exceeds the bytes given, no call's argument
// exceeds the limit, and the requests, the bytes written, whether and where the stream failed,
// and the final mid_request() are the same whether the bytes came in one read or many. For a
// codec whose output depends on the cut (output_depends_on_reads: HTTP/2), only the requests are
// compared, and only when neither run failed (broken input may be a stream error in one run and a
// connection error in the other). Any failure aborts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "codec_fuzz_support.hpp"
#include "support/protocol_cases.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace {

using namespace wirebench;
constexpr const char* target = "server_codec";
constexpr std::string_view interim_continue = "HTTP/1.1 100 Continue\r\n\r\n";

// What the codec wrote, appended to `written` (HTTP dates masked: the one thing that may differ).
void take_output(gather_queue& out, std::string& written) {
  out.for_each_segment([&](std::span<const std::byte> s) { written += as_text(s); });
  out.clear();
}

std::vector<std::string> run(const server_codec_factory& make, std::size_t max_request,
                             const std::vector<std::string_view>& reads) {
  std::vector<std::string> transcript;
  auto codec = make();
  gather_queue out;
  std::string written;
  server_request request;
  // Which error may depend on the cut (a limit and a malformed byte seen in either order); that
  // the stream failed, and after which requests, must agree.
  std::string last = fuzz::feed_reads(
      reads, codec->max_read_bytes(), "failed: stream error",
      [&](std::string_view pending, std::error_code& error) {
        std::size_t used = 0;
        for (;;) {
          request.what = server_request::kind::none;
          request.answer.clear();
          const std::size_t consumed =
              codec->decode(as_bytes(pending.substr(used)), request, out, error);
          fuzz::check_consumed(target, consumed, pending.size() - used);
          used += consumed;
          if (request.what == server_request::kind::call) {
            if (request.argument.size() > max_request)
              fuzz::fail(target, "a " + std::to_string(request.argument.size()) +
                                     "-byte request, limit " + std::to_string(max_request));
            transcript.push_back("call '" + fuzz::printable(request.argument) + "'");
            codec->encode_reply(request.key, true, "hello, " + std::string(request.argument), out);
          } else if (request.answer == interim_continue) {
            // Sent only while a body is still to come (RFC 9110 §10.1.1): how the bytes were cut
            // decides whether it is, so neither run records it.
          } else if (request.what == server_request::kind::cancel) {
            transcript.push_back("cancel " + std::to_string(request.key));
          } else if (request.what != server_request::kind::none) {
            const bool answered = request.what == server_request::kind::answered;
            transcript.push_back(answered ? "answered" : "notice");
            out.append_bytes(as_bytes(request.answer));
          } else {
            break;
          }
          if (error) break;
        }
        if (!error) error = codec->produce(out);
        take_output(out, written);
        return used;
      });
  if (last.empty()) last = "end, mid_request=" + std::to_string(codec->mid_request());
  if (!codec->output_depends_on_reads())
    transcript.push_back("wrote '" + fuzz::printable(test::mask_http_dates(written)) + "' (" +
                         std::to_string(written.size()) + " bytes)");
  transcript.push_back(std::move(last));
  return transcript;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [p, in] = fuzz::pick(target, data, size, &protocol::server_codecs);
  const std::uint8_t flags = in.setting(1);

  server_config config;
  config.max_frame_bytes = (flags & 8) ? 64 : 4096;
  config.on_oversize = (flags & 16) ? oversize_policy::resync : oversize_policy::fail;
  if (p.can.fit_server_to_load) p.can.fit_server_to_load(config, std::size_t{1} << 20);
  // A server each (its first connection): what a server numbers per connection (RESP's CLIENT
  // ID) is then alike in both runs.
  const auto whole = run(p.server_codecs(config), config.max_frame_bytes, fuzz::whole(in.stream()));
  const auto reads = fuzz::cut(in.stream(), in.setting(2), in.setting(3));
  const auto cut = run(p.server_codecs(config), config.max_frame_bytes, reads);
  const bool by_cut = p.server_codecs(config)()->output_depends_on_reads();
  if (!by_cut || (!whole.back().starts_with("failed") && !cut.back().starts_with("failed")))
    fuzz::expect_same((std::string(target) + " " + p.name).c_str(), whole, cut, reads.size());
  return 0;
}
