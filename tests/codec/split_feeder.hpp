#pragma once
// Test helper: drives a sans-IO decoder the way a connection does, whatever way the stream is
// split into reads. It keeps a buffer of unconsumed bytes, appends each piece, calls decode() on
// the unconsumed bytes until it needs more input, drops `consumed` bytes from the front after each
// call and copies every frame out before doing so. It records the events (frames, too_large,
// corrupt) and every broken contract it sees, so two splittings of one stream can be compared.
// Also: reference models of both decoders, check_all_splits() for the tests and pattern_cuts() /
// compare_two_splits() for the fuzz targets.
//
// Free of GoogleTest: the fuzz targets (tests/fuzz) use it too.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/codec/line_decoder.hpp"
#include "wirebench/core/decode_result.hpp"

namespace wirebench::test {

inline const char* status_name(decode_status s) {
  switch (s) {
    case decode_status::need_more: return "need_more";
    case decode_status::frame: return "frame";
    case decode_status::too_large: return "too_large";
    case decode_status::corrupt: return "corrupt";
  }
  return "?";
}

// One decode() step as a test compares it: "frame 'hello', consumed 6" ("need_more, consumed 0").
inline std::string step(const decode_result& r) {
  std::string text = status_name(r.status);
  if (r.status == decode_status::frame)
    text += " '" + std::string(as_text(r.frame)) + "'";
  return text + ", consumed " + std::to_string(r.consumed);
}

// One observable outcome of decoding: a frame (with its bytes), too_large or corrupt.
struct event {
  decode_status status = decode_status::frame;
  std::string bytes;  // the frame's bytes, empty for errors

  friend bool operator==(const event&, const event&) = default;
};

inline event frame_event(std::string_view bytes) { return {decode_status::frame, std::string(bytes)}; }
inline event too_large_event() { return {decode_status::too_large, {}}; }
inline event corrupt_event() { return {decode_status::corrupt, {}}; }

inline std::string describe(const std::vector<event>& events) {
  std::string out;
  for (const event& e : events) {
    if (!out.empty()) out += ", ";
    if (e.status == decode_status::frame) {
      out += '"';
      for (char c : e.bytes.substr(0, 40)) {
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)
          out += "\\x" + std::string(1, "0123456789abcdef"[(c >> 4) & 0xf]) + "0123456789abcdef"[c & 0xf];
        else out += c;
      }
      if (e.bytes.size() > 40) out += "...(" + std::to_string(e.bytes.size()) + " bytes)";
      out += '"';
    } else {
      out += status_name(e.status);
    }
  }
  return "[" + out + "]";
}

inline std::ostream& operator<<(std::ostream& os, const event& e) { return os << describe({e}); }

// ---- Reference models: the documented semantics, written plainly, for whole inputs ------------

// line_decoder: split on '\n', strip one '\r' before it if asked, compare with the limit; a
// trailing unfinished line is too_large as soon as what is known of it is over the limit.
inline std::vector<event> line_model(const line_decoder_config& c, std::string_view in) {
  std::vector<event> out;
  std::size_t pos = 0;
  for (;;) {
    const std::size_t nl = in.find('\n', pos);
    if (nl == std::string_view::npos) {
      std::size_t at_least = in.size() - pos;
      if (c.strip_cr && at_least > 0 && in.back() == '\r') --at_least;
      if (at_least > c.max_line_bytes) out.push_back(too_large_event());
      return out;
    }
    std::string_view line = in.substr(pos, nl - pos);
    if (c.strip_cr && !line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.size() > c.max_line_bytes) {
      out.push_back(too_large_event());
      if (c.on_oversize == oversize_policy::fail) return out;
    } else {
      out.push_back(frame_event(line));
    }
    pos = nl + 1;
  }
}

// length_prefix_decoder: big-endian length, >= 2^63 corrupt (fatal), over the limit too_large
// (fatal, or the declared payload is skipped under resync).
inline std::vector<event> length_prefix_model(const length_prefix_config& c, std::string_view in) {
  std::vector<event> out;
  std::size_t pos = 0;
  const std::size_t w = c.lead_bytes + c.header_bytes;  // lead bytes (any value), then the length
  while (in.size() - pos >= w) {
    std::uint64_t len = 0;
    for (std::size_t i = c.lead_bytes; i < w; ++i)
      len = (len << 8) | static_cast<unsigned char>(in[pos + i]);
    if (len >= (std::uint64_t{1} << 63)) {
      out.push_back(corrupt_event());
      return out;
    }
    const std::size_t available = in.size() - pos - w;
    if (len > c.max_frame_bytes) {
      out.push_back(too_large_event());
      if (c.on_oversize == oversize_policy::fail || len > available) return out;
      pos += w + static_cast<std::size_t>(len);
      continue;
    }
    if (len > available) return out;
    out.push_back(frame_event(in.substr(pos + w, static_cast<std::size_t>(len))));
    pos += w + static_cast<std::size_t>(len);
  }
  return out;
}

// Where two event sequences first differ, with a little context: readable even for long streams.
inline std::string describe_difference(const std::vector<event>& got, const std::vector<event>& want) {
  std::size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  const std::size_t from = i > 2 ? i - 2 : 0;
  auto window = [&](const std::vector<event>& v) {
    std::vector<event> w(v.begin() + static_cast<std::ptrdiff_t>(std::min(from, v.size())),
                         v.begin() + static_cast<std::ptrdiff_t>(std::min(i + 3, v.size())));
    return describe(w) + " (" + std::to_string(v.size()) + " events)";
  };
  return "first difference at event #" + std::to_string(i) + ": got ..." + window(got) +
         ", expected ..." + window(want);
}

// The complete outcome of feeding one stream: compared across splittings.
struct outcome {
  std::vector<event> events;
  std::string unconsumed;    // bytes still buffered at the end
  bool mid_frame = false;    // decoder.mid_frame() at the end
  bool failed = false;       // decoder.failed() at the end

  friend bool operator==(const outcome&, const outcome&) = default;
};

template <typename Decoder>
class split_feeder {
 public:
  // max_frame: the decoder's limit; any frame longer is a violation.
  split_feeder(Decoder decoder, std::size_t max_frame)
      : decoder_(std::move(decoder)), max_frame_(max_frame) {}

  void feed(std::string_view piece) { feed(as_bytes(piece)); }

  void feed(std::span<const std::byte> piece) {
    buffer_.insert(buffer_.end(), piece.begin(), piece.end());
    if (closed_) {
      // The stream is lost: a real connection would be closed. The decoder must keep saying so.
      const decode_result r = decoder_.decode(buffer_);
      if (r.status != sticky_ || r.consumed != 0 || !r.frame.empty())
        violation("after a fatal error decode() returned " + std::string(status_name(r.status)) +
                  " consumed=" + std::to_string(r.consumed) + " instead of the sticky " +
                  status_name(sticky_));
      if (!decoder_.failed()) violation("failed() went back to false");
      return;
    }
    for (;;) {
      const decode_result r = decoder_.decode(buffer_);
      ++calls_;
      if (r.consumed > buffer_.size()) {
        violation("consumed " + std::to_string(r.consumed) + " > available " +
                  std::to_string(buffer_.size()));
        closed_ = true;
        sticky_ = r.status;
        return;
      }
      switch (r.status) {
        case decode_status::frame: {
          const std::byte* lo = buffer_.data();
          const std::byte* hi = buffer_.data() + r.consumed;
          if (!r.frame.empty() && (r.frame.data() < lo || r.frame.data() + r.frame.size() > hi))
            violation("frame is not within the consumed bytes");
          if (r.frame.size() > max_frame_)
            violation("frame of " + std::to_string(r.frame.size()) + " bytes over the limit " +
                      std::to_string(max_frame_));
          result_.events.push_back(frame_event(as_text(r.frame)));
          break;
        }
        case decode_status::too_large:
        case decode_status::corrupt:
          if (!r.frame.empty()) violation("error result with a frame");
          result_.events.push_back({r.status, {}});
          break;
        case decode_status::need_more:
          if (!r.frame.empty()) violation("need_more with a frame");
          break;
      }
      buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(r.consumed));
      if (decoder_.failed()) {
        if (r.status != decode_status::too_large && r.status != decode_status::corrupt)
          violation("failed() is true after a " + std::string(status_name(r.status)));
        closed_ = true;
        sticky_ = r.status;
        return;
      }
      if (r.status == decode_status::corrupt) violation("corrupt but failed() is false");
      if (r.consumed == 0) {
        // need_more with nothing to drop: wait for more input. Anything else without progress
        // would make a connection loop forever.
        if (r.status != decode_status::need_more) {
          violation(std::string(status_name(r.status)) + " with consumed == 0 and not failed()");
          closed_ = true;
          sticky_ = r.status;
        }
        return;
      }
    }
  }

  // The outcome so far (call after the last feed()).
  outcome finish() {
    result_.unconsumed.assign(reinterpret_cast<const char*>(buffer_.data()), buffer_.size());
    result_.mid_frame = decoder_.mid_frame();
    result_.failed = decoder_.failed();
    return result_;
  }

  const std::vector<std::string>& violations() const { return violations_; }
  const std::vector<event>& events() const { return result_.events; }
  Decoder& decoder() { return decoder_; }
  std::size_t decode_calls() const { return calls_; }

 private:
  void violation(std::string what) { violations_.push_back(std::move(what)); }

  Decoder decoder_;
  std::size_t max_frame_;
  std::vector<std::byte> buffer_;
  outcome result_;
  std::vector<std::string> violations_;
  bool closed_ = false;
  decode_status sticky_ = decode_status::need_more;
  std::size_t calls_ = 0;
};

// The result of feeding `input` cut at the given (sorted, in-range) positions.
struct split_run {
  outcome result;
  std::vector<std::string> violations;
};

template <typename Decoder>
split_run run_split(const Decoder& prototype, std::size_t max_frame, std::string_view input,
                    const std::vector<std::size_t>& cuts) {
  split_feeder<Decoder> feeder(prototype, max_frame);
  std::size_t at = 0;
  for (std::size_t cut : cuts) {
    feeder.feed(input.substr(at, cut - at));
    at = cut;
  }
  feeder.feed(input.substr(at));
  return {feeder.finish(), feeder.violations()};
}

template <typename Decoder>
split_run run_whole(const Decoder& prototype, std::size_t max_frame, std::string_view input) {
  return run_split(prototype, max_frame, input, {});
}

template <typename Decoder>
split_run run_bytewise(const Decoder& prototype, std::size_t max_frame, std::string_view input) {
  split_feeder<Decoder> feeder(prototype, max_frame);
  for (char c : input) feeder.feed(std::string_view(&c, 1));
  return {feeder.finish(), feeder.violations()};
}

// Random cut positions (sorted, possibly repeated, giving empty pieces) for `size` bytes.
inline std::vector<std::size_t> random_cuts(std::mt19937& rng, std::size_t size) {
  std::vector<std::size_t> cuts;
  if (size == 0) return cuts;
  const std::size_t pieces = std::uniform_int_distribution<std::size_t>(0, std::min<std::size_t>(size, 64))(rng);
  std::uniform_int_distribution<std::size_t> pos(0, size);
  for (std::size_t i = 0; i < pieces; ++i) cuts.push_back(pos(rng));
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

inline std::string describe(const outcome& o) {
  return describe(o.events) + " unconsumed=" + std::to_string(o.unconsumed.size()) +
         " mid_frame=" + (o.mid_frame ? "true" : "false") + " failed=" + (o.failed ? "true" : "false");
}

inline std::string describe_difference(const outcome& got, const outcome& want) {
  if (got.events != want.events) return describe_difference(got.events, want.events);
  return "same events, but got unconsumed=" + std::to_string(got.unconsumed.size()) + " mid_frame=" +
         (got.mid_frame ? "true" : "false") + " failed=" + (got.failed ? "true" : "false") +
         ", expected unconsumed=" + std::to_string(want.unconsumed.size()) + " mid_frame=" +
         (want.mid_frame ? "true" : "false") + " failed=" + (want.failed ? "true" : "false");
}

// Feeds `input` whole, byte by byte, cut at every single position and cut at `random_runs` random
// sets of positions (std::mt19937 seeded with `seed`), and checks that every run gives the same
// outcome as the whole-input run and breaks no contract. Returns "" or what went wrong first.
template <typename Decoder>
std::string check_all_splits(const Decoder& prototype, std::size_t max_frame, std::string_view input,
                             unsigned seed = 12345, int random_runs = 1000) {
  const split_run reference = run_whole(prototype, max_frame, input);
  auto compare = [&](const split_run& run, const std::string& how) -> std::string {
    if (!run.violations.empty()) return how + ": " + run.violations.front();
    if (!(run.result == reference.result)) return how + ": " + describe_difference(run.result, reference.result);
    return {};
  };
  if (!reference.violations.empty()) return "whole input: " + reference.violations.front();
  if (auto e = compare(run_bytewise(prototype, max_frame, input), "byte by byte"); !e.empty()) return e;
  for (std::size_t cut = 0; cut <= input.size(); ++cut)
    if (auto e = compare(run_split(prototype, max_frame, input, {cut}),
                         "two pieces cut at " + std::to_string(cut));
        !e.empty())
      return e;
  std::mt19937 rng(seed);
  for (int i = 0; i < random_runs; ++i) {
    const auto cuts = random_cuts(rng, input.size());
    if (auto e = compare(run_split(prototype, max_frame, input, cuts),
                         "random split #" + std::to_string(i) + " (" + std::to_string(cuts.size() + 1) + " pieces)");
        !e.empty())
      return e;
  }
  return {};
}

// For the fuzz targets: cut positions for `size` bytes from a pattern byte and a seed byte. Piece
// sizes are drawn from [0, 2^(pattern & 7)] (pattern 0: byte by byte, with empty reads), or, with
// bit 3 set, a handful of random cuts anywhere.
inline std::vector<std::size_t> pattern_cuts(std::uint8_t pattern, std::uint8_t seed, std::size_t size) {
  std::mt19937 rng(static_cast<unsigned>(pattern) << 8 | seed);
  if (pattern & 8) return random_cuts(rng, size);
  std::vector<std::size_t> cuts;
  std::uniform_int_distribution<std::size_t> piece(0, std::size_t{1} << (pattern & 7));
  for (std::size_t at = piece(rng); at < size; at += piece(rng)) cuts.push_back(at);
  return cuts;
}

// Runs `input` whole and cut at `cuts`; returns "" or the first broken contract or difference.
template <typename Decoder>
std::string compare_two_splits(const Decoder& prototype, std::size_t max_frame, std::string_view input,
                               const std::vector<std::size_t>& cuts, outcome* whole_result = nullptr) {
  const split_run whole = run_whole(prototype, max_frame, input);
  if (whole_result != nullptr) *whole_result = whole.result;
  if (!whole.violations.empty()) return "whole input: " + whole.violations.front();
  const split_run split = run_split(prototype, max_frame, input, cuts);
  const std::string how = "split in " + std::to_string(cuts.size() + 1) + " pieces";
  if (!split.violations.empty()) return how + ": " + split.violations.front();
  if (!(whole.result == split.result))
    return how + " vs whole input: " + describe_difference(split.result, whole.result);
  return {};
}

}  // namespace wirebench::test
