#pragma once
// What the parser and codec fuzz targets share: reading their settings from the input's first
// bytes, cutting the rest into reads (split_feeder.hpp's patterns), and failing loudly. Each
// target runs one stream twice, whole and cut into reads, writes what it saw into a transcript
// (one line per reply, command or error), and aborts when the two differ or a contract breaks.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "codec/split_feeder.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/encoded_frame.hpp"
#include "wirebench/core/feed_decoder.hpp"
#include "wirebench/core/frame_decoder.hpp"

namespace wirebench::fuzz {

// The fuzz input: `settings` leading bytes (0 when the input is shorter), then the stream.
class input {
 public:
  input(const std::uint8_t* data, std::size_t size, std::size_t settings)
      : data_(data), size_(size), settings_(settings) {}
  std::uint8_t setting(std::size_t i) const { return i < size_ ? data_[i] : 0; }
  std::string_view stream() const {
    return size_ > settings_ ? std::string_view(reinterpret_cast<const char*>(data_) + settings_,
                                                size_ - settings_)
                             : std::string_view();
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t settings_;
};

// A decoder fuzz target's frame limit from one setting byte: 0..127, or (byte & 0x7f) * 61 when
// the top bit is set (up to 7747, past the small sizes where the edge cases sit).
inline std::size_t frame_limit(std::uint8_t setting) {
  return (setting & 0x80) ? std::size_t{setting & 0x7fu} * 61 : setting;
}

// A stream decoder target's input: [limit][flags][pattern][seed] then the stream (check_decoder
// cuts it where pattern and seed say).
struct decoder_input : input {
  decoder_input(const std::uint8_t* data, std::size_t size) : input(data, size, 4) {}
  std::size_t limit() const { return frame_limit(setting(0)); }
  std::uint8_t flags() const { return setting(1); }
};

// The stream as reads: whole (one piece), or cut where `pattern` and `seed` say.
inline std::vector<std::string_view> whole(std::string_view stream) { return {stream}; }
inline std::vector<std::string_view> cut(std::string_view stream, std::uint8_t pattern,
                                         std::uint8_t seed) {
  std::vector<std::string_view> pieces;
  std::size_t from = 0;
  for (std::size_t at : test::pattern_cuts(pattern, seed, stream.size())) {
    pieces.push_back(stream.substr(from, at - from));
    from = at;
  }
  pieces.push_back(stream.substr(from));
  return pieces;
}

// Bytes as a transcript shows them: printable ASCII as is, the rest as \xNN, at most 60 bytes.
inline std::string printable(std::string_view bytes) {
  std::string out;
  for (char c : bytes.substr(0, 60)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && c != '\\') {
      out += c;
    } else {
      out += "\\x";
      out += "0123456789abcdef"[u >> 4];
      out += "0123456789abcdef"[u & 0xf];
    }
  }
  if (bytes.size() > 60) out += "...(" + std::to_string(bytes.size()) + " bytes)";
  return out;
}

[[noreturn]] inline void fail(const char* target, const std::string& what) {
  std::fprintf(stderr, "%s fuzz: %s\n", target, what.c_str());
  std::abort();
}

// Aborts when the whole run's transcript and the cut run's differ, naming the first difference.
inline void expect_same(const char* target, const std::vector<std::string>& whole_run,
                        const std::vector<std::string>& cut_run, std::size_t pieces) {
  if (whole_run == cut_run) return;
  std::size_t i = 0;
  while (i < whole_run.size() && i < cut_run.size() && whole_run[i] == cut_run[i]) ++i;
  const auto at = [i](const std::vector<std::string>& t) {
    return i < t.size() ? "'" + t[i] + "'" : std::string("(end)");
  };
  for (const auto* t : {&whole_run, &cut_run}) {
    std::fprintf(stderr, "%s:\n", t == &whole_run ? "read whole" : "read cut");
    for (std::size_t k = 0; k < t->size() && k < 40; ++k) std::fprintf(stderr, "  %s\n", (*t)[k].c_str());
  }
  fail(target, "read whole vs cut in " + std::to_string(pieces) + " pieces, event " +
                   std::to_string(i) + ": " + at(whole_run) + " vs " + at(cut_run));
}

// A stream decoder's checks: decoded whole and cut where settings 2 and 3 say, the outcomes are
// the same (split_feeder.hpp's compare_two_splits); `extra` holds for the whole run's outcome; its
// events are the reference model's. Returns the first problem, or "".
template <class Decoder, class Extra>
std::string check_decoder(const Decoder& decoder, std::size_t max_frame, const input& in,
                          const std::vector<test::event>& model, Extra&& extra) {
  const std::string_view stream = in.stream();
  test::outcome whole;
  std::string problem = test::compare_two_splits(
      decoder, max_frame, stream, test::pattern_cuts(in.setting(2), in.setting(3), stream.size()),
      &whole);
  if (problem.empty()) problem = extra(whole);
  if (problem.empty() && whole.events != model)
    problem = "vs the model: " + test::describe_difference(whole.events, model);
  return problem;
}

// A stream target's input: [settings][pattern][seed] then the stream, and the contract every
// such target checks: `run(reads)` makes the same transcript whether the stream comes whole or cut
// where pattern and seed say; aborts naming the first difference.
struct stream_input : input {
  stream_input(const std::uint8_t* data, std::size_t size) : input(data, size, 3) {}
  std::uint8_t settings() const { return setting(0); }
  std::vector<std::string_view> cut_reads() const { return cut(stream(), setting(1), setting(2)); }
  template <class Run>
  int expect_same_whole_and_cut(const char* target, Run&& run) const {
    const auto reads = cut_reads();
    expect_same(target, run(whole(stream())), run(reads), reads.size());
    return 0;
  }
};

// A frame_decoder over `reads` as a stream's reader drives it: each read appended to the
// unconsumed bytes, decoded until more are needed. `describe(frame, bytes)` checks each frame
// (`bytes`: what it was read from) and returns its transcript line; the last line is the error
// or "end, N bytes unconsumed". Fails when a step consumes more than it was given.
template <class Decoder, class Describe>
std::vector<std::string> decode_reads(const char* target, Decoder& decoder,
                                      const std::vector<std::string_view>& reads,
                                      Describe&& describe) {
  std::vector<std::string> transcript;
  std::string pending;
  for (std::string_view read : reads) {
    pending.append(read);
    std::size_t consumed = 0;
    for (;;) {
      const std::size_t before = consumed;
      std::error_code error;
      const auto step = decode_from(decoder, as_bytes(pending), consumed, error);
      if (consumed > pending.size())
        fail(target, "consumed " + std::to_string(consumed) + " of " +
                         std::to_string(pending.size()) + " bytes");
      if (error) {
        transcript.push_back("error " + error.message());
        return transcript;
      }
      if (step.status != decode_status::frame) break;
      transcript.push_back(describe(step.frame, std::string_view(pending).substr(before, consumed - before)));
    }
    pending.erase(0, consumed);
  }
  transcript.push_back("end, " + std::to_string(pending.size()) + " bytes unconsumed");
  return transcript;
}

// A feed_decoder (core/feed_decoder.hpp) over `reads` as a stream's reader drives it: each read
// fed, every item next() hands out given to `describe(item)` (which checks it and returns its
// transcript line), then released. The last line is `on_error(error)` for the error that ends the
// stream, or `end()`.
template <feed_decoder Decoder, class Describe, class OnError, class End>
std::vector<std::string> feed_reads(Decoder& decoder, const std::vector<std::string_view>& reads,
                                    Describe&& describe, OnError&& on_error, End&& end) {
  std::vector<std::string> transcript;
  for (std::string_view read : reads) {
    decoder.feed(as_bytes(read));
    std::error_code error;
    for (;;) {
      auto item = decoder.next(error);
      if (!item) break;
      transcript.push_back(describe(*item));
    }
    decoder.release();
    if (error) {
      transcript.push_back(on_error(error));
      return transcript;
    }
  }
  transcript.push_back(end());
  return transcript;
}

// An encoded frame's bytes, gathered (to compare with what a frame was read from).
inline std::string gathered(const encoded_frame& frame) {
  std::string bytes;
  for (const auto part : frame.buffers()) bytes += as_text(part);
  return bytes;
}

// The whole entry of a framing target whose input is [limit][pattern][seed] then the stream:
// `run(limit, reads)` over the stream whole and cut, the two transcripts the same.
template <class Run>
int run_limited_stream(const char* target, const std::uint8_t* data, std::size_t size, Run&& run) {
  const stream_input in(data, size);
  const std::size_t limit = frame_limit(in.settings());
  return in.expect_same_whole_and_cut(target, [&](const auto& reads) { return run(limit, reads); });
}

}  // namespace wirebench::fuzz
