// libFuzzer target for every client codec on the client engine (line, length-prefixed, mux,
// msgpack-rpc, http1, http2, grpc, resp, redis-server: the registry's client_codecs), fed what a
// lying server might send. Input: [protocol][flags][pattern][seed] then the server's bytes.
//   protocol: which codec: "@name\n" (the seeds), or one byte, modulo how many there are
//             (codec_fuzz_support.hpp's pick)
//   flags:    bits 0-2 calls encoded first (ids 1..n), bit 3 a 64-byte reply limit (else 4 KiB),
//             bit 4 HTTP/1.1 Connection: close, bit 5 a user call where the protocol takes one
//             (HTTP: with an expected body, and with bit 6 a HEAD; RESP: with an expected reply;
//             gRPC: echo.proto's unary Get, and with bit 6 its server-streaming Expand, replies
//             judged and turned into JSON by the method's descriptors)
//   pattern, seed: how the bytes are cut into reads for the second run (split_feeder.hpp)
// The codec is driven as engine_link drives it: open, encode the calls, produce; then each read
// is appended to the unconsumed bytes, which are decoded whole; the read buffer holds at most
// max_read_bytes(), as a connection's does. Checked: consumed never exceeds the bytes given,
// every reply body lies within the limit (plus framing the codec may keep), and the replies,
// whether the server went away, whether and where the connection failed, and the final
// mid_reply() are the same whether the bytes came in one read or many (for a codec whose failures
// depend on the cut, HTTP/2's: each call's answer, see expect_consistent_streams). Any failure
// aborts.
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "codec_fuzz_support.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/gather_queue.hpp"
#include "wirebench/protocols/user_call_form.hpp"
#include "test_paths.h"

namespace {

using namespace wirebench;
constexpr const char* target = "client_codec";

std::vector<std::string> run(const client_codec_factory& make, int calls, std::size_t max_reply,
                             const std::vector<std::string_view>& reads) {
  std::vector<std::string> transcript;
  auto codec = make();
  gather_queue out;
  if (auto ec = codec->open(out)) fuzz::fail(target, "open failed: " + ec.message());
  for (int id = 1; id <= calls; ++id)
    if (auto ec = codec->encode(static_cast<std::uint32_t>(id), "n" + std::to_string(id), out))
      fuzz::fail(target, "encode failed: " + ec.message());
  if (auto ec = codec->produce(out)) fuzz::fail(target, "produce failed: " + ec.message());
  out.clear();

  decoded replies;
  // A state, not an event: the engine acts on it once, after a decode's replies. Where it falls
  // among them depends on the cut, so the transcript gives it once, at its end.
  std::string went_away = "never went away";
  // Which error: when a reply both breaks a limit and is malformed, the reader that saw more
  // bytes at once may notice the other first (hiredis parses a whole line before the reply bound
  // applies). That the connection failed, and after which replies, must agree.
  std::string last = fuzz::feed_reads(
      reads, codec->max_read_bytes(), "failed: connection error",
      [&](std::string_view pending, std::error_code& error) {
        replies.replies.clear();
        replies.going_away = replies.rest_not_processed = false;
        const std::size_t consumed = codec->decode(as_bytes(pending), replies, out, error);
        fuzz::check_consumed(target, consumed, pending.size());
        for (const codec_reply& r : replies.replies) {
          const bool failed = r.error || r.not_processed;
          if (r.body.size() > max_reply + 64)  // a body over the limit was accepted
            fuzz::fail(target, "a " + std::to_string(r.body.size()) + "-byte reply body, limit " +
                                   std::to_string(max_reply));
          const std::string id = codec->order() == reply_order::by_id ? std::to_string(r.id) : "-";
          transcript.push_back(std::string(failed ? "failed " : "") + "reply " + id + " error='" +
                               r.error.message() + "' not_processed=" +
                               std::to_string(r.not_processed) + " body='" +
                               fuzz::printable(r.body) + "'");
        }
        if (replies.going_away && went_away.starts_with("never"))
          went_away =
              "going away, rest not processed=" + std::to_string(replies.rest_not_processed);
        if (!error) error = codec->produce(out);
        out.clear();
        return consumed;
      });
  if (last.empty()) last = "end, mid_reply=" + std::to_string(codec->mid_reply());
  transcript.push_back(went_away);
  transcript.push_back(std::move(last));
  return transcript;
}

// A user call's codecs, with the protocol's form's example `which` (user_call_form::examples,
// echo.proto for those that read one): made once per protocol, reply limit and example, as
// building some (parsing echo.proto) would cost more than the input's run.
client_codec_factory user_call_codecs(const protocol& p, client_config config, std::size_t which) {
  static std::map<std::tuple<std::string, std::size_t, std::size_t>, client_codec_factory> made;
  client_codec_factory& codecs = made[{p.name, config.max_frame_bytes, which}];
  if (!codecs) {
    const std::vector<std::string> examples = p.can.user_calls->examples(WIREBENCH_ECHO_PROTO);
    const nlohmann::json entry = nlohmann::json::parse(examples[which % examples.size()]);
    config.calls = {user_call{p.can.user_calls->from_entry(json_fields(entry, "example"), {})}};
    codecs = p.client_codecs(config);
  }
  return codecs;
}

// HTTP/2's codecs (http2, grpc): nghttp2 answers some broken input by how it was read (a bad
// header block read in pieces is a stream error, RST_STREAM; read with the bad frame behind it, a
// connection error, GOAWAY), and a stream it resets closes when the reset is sent, after the
// rest of that read (a GOAWAY in it may have refused the stream first): so whether a call fails,
// how, and where among the other streams' replies, can depend on the cut. What must hold: a call
// that succeeded in both runs got the same answer; and where neither run's connection failed,
// the same calls succeeded, with the same answers, and the same calls failed, in whatever order
// and however.
void expect_consistent_streams(const char* name, const std::vector<std::string>& whole,
                               const std::vector<std::string>& cut, std::size_t pieces) {
  struct answers {
    std::map<std::string, std::string> succeeded;  // call id -> its reply line
    std::set<std::string> failed;                  // call ids
  };
  const auto by_call = [](const std::vector<std::string>& t) {
    answers a;
    for (const std::string& line : t) {
      const bool failed = line.starts_with("failed reply ");
      if (!failed && !line.starts_with("reply ")) continue;
      const std::size_t id = line.find("reply ") + 6;
      const std::string call = line.substr(id, line.find(' ', id) - id);
      if (failed) {
        a.failed.insert(call);
      } else {
        a.succeeded.emplace(call, line);
      }
    }
    return a;
  };
  const answers w = by_call(whole), c = by_call(cut);
  for (const auto& [call, line] : w.succeeded)
    if (const auto other = c.succeeded.find(call); other != c.succeeded.end() && other->second != line)
      fuzz::fail(name, "call " + call + " answered '" + line + "' read whole, '" + other->second +
                           "' cut in " + std::to_string(pieces) + " pieces");
  // The last line is how the connection ended; the one before, whether the server went away.
  const bool connection_failed =
      whole.back().starts_with("failed") || cut.back().starts_with("failed");
  if (!connection_failed && (w.succeeded != c.succeeded || w.failed != c.failed))
    fuzz::expect_same(name, std::vector<std::string>(whole.begin(), whole.end() - 2),
                      std::vector<std::string>(cut.begin(), cut.end() - 2), pieces);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto [p, in] = fuzz::pick(target, data, size, &protocol::client_codecs);
  const std::uint8_t flags = in.setting(1);

  client_config config;
  config.connect = endpoint::parse_or_throw("tcp://127.0.0.1:7000");  // never dialed
  config.max_frame_bytes = (flags & 8) ? 64 : 4096;
  const bool user_call = (flags & 32) != 0 && p.can.user_calls && p.can.user_calls->examples;
  const client_codec_factory make = user_call ? user_call_codecs(p, config, (flags & 64) != 0 ? 1 : 0)
                                              : p.client_codecs(config);
  const int calls = flags & 7;

  auto whole = run(make, calls, config.max_frame_bytes, fuzz::whole(in.stream()));
  const auto reads = fuzz::cut(in.stream(), in.setting(2), in.setting(3));
  auto cut = run(make, calls, config.max_frame_bytes, reads);
  if (make()->failures_depend_on_reads()) {
    expect_consistent_streams((std::string(target) + " " + p.name).c_str(), whole, cut, reads.size());
    return 0;
  }
  fuzz::expect_same((std::string(target) + " " + p.name).c_str(), whole, cut, reads.size());
  return 0;
}
