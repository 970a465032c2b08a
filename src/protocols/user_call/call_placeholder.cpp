#include "wirebench/protocols/call_placeholder.hpp"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace wirebench {
namespace {
__extension__ typedef unsigned __int128 uint128;  // GCC and Clang have it; ISO C++ does not

constexpr std::size_t width = 12;  // every per-call placeholder's
static_assert(random_int_placeholder.size() == width && sequence_placeholder.size() == width &&
              random_string_placeholder.size() == width);

// The process's call numbers for __sequence__ (one shared line, touched only by calls that have one).
std::atomic<std::uint64_t> next_sequence{0};

void write_digits(char* to, std::uint64_t n) {
  for (std::size_t i = width; i-- > 0; n /= 10) to[i] = static_cast<char>('0' + n % 10);
}

constexpr std::size_t max_payload = 16 << 20;
constexpr std::size_t max_random_string = 1 << 20;

// __rand_str_N__ becomes, before any request is built, N bytes that say what they are: "__s",
// N's digits, then '_' up to N bytes ("__s20_______________"), which a codec copies into its
// request like any text and the filler finds in the request's bytes (and so at any offset any
// encoding puts it). Hence N >= 4: the digits must fit in the N bytes.
constexpr std::size_t min_random_string = 4;

std::string random_string_marker(std::size_t n) {
  std::string marker = "__s" + std::to_string(n);
  return marker.append(n - marker.size(), '_');
}

// The length of the marker at `bytes`' start, or 0 when there is none. A marker that fills its N
// bytes with its digits ("__s4") may be followed by the user's own digits ("__s47..."): the
// longest run of digits that makes a whole marker wins, then shorter ones, so that __rand_str_4__
// before a digit is still found (and __s47 with its 42 underscores is 47, not 4).
std::size_t random_string_marker_at(std::string_view bytes) {
  if (!bytes.starts_with("__s")) return 0;
  const std::size_t digits_end = std::min(bytes.find_first_not_of("0123456789", 3), bytes.size());
  if (digits_end == 3 || bytes[3] == '0') return 0;
  for (std::size_t end = std::min(digits_end, std::size_t{3 + 8}); end > 3; --end) {  // N < 10^8
    std::size_t n = 0;
    std::from_chars(bytes.data() + 3, bytes.data() + end, n);
    if (n < min_random_string || n > bytes.size() || end > n) continue;
    if (bytes.substr(end, n - end).find_first_not_of('_') == std::string_view::npos) return n;
  }
  return 0;
}

// `text` with every `open` + N + "__" replaced by make(N); N a whole number in [lowest, highest].
// `keep`: a placeholder that starts as `open` does and stays (__rand_str__).
template <typename Make>
std::string expand_sized(std::string_view text, std::string_view open, std::size_t lowest,
                         std::size_t highest, std::string_view what, std::string_view keep, Make make) {
  std::string out;
  std::size_t from = 0;
  for (auto at = text.find(open); at != std::string_view::npos; at = text.find(open, from)) {
    if (!keep.empty() && text.substr(at).starts_with(keep)) {
      out.append(text.substr(from, at + keep.size() - from));
      from = at + keep.size();
      continue;
    }
    const char* digits = text.data() + at + open.size();
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(digits, text.data() + text.size(), n);
    const std::string_view rest = text.substr(static_cast<std::size_t>(end - text.data()));
    if (ec != std::errc{} || end == digits || !rest.starts_with("__") || n < lowest || n > highest)
      throw std::invalid_argument("'" + std::string(text.substr(at, 24)) + "...': " + std::string(what) +
                                  " is " + std::string(open) + "N__, N from " + std::to_string(lowest) +
                                  " to " + std::to_string(highest));
    out.append(text.substr(from, at - from)).append(make(n));
    from = static_cast<std::size_t>(end - text.data()) + 2;
  }
  return out.append(text.substr(from));
}

}  // namespace

placeholder_filler::placeholder_filler(std::string_view bytes, std::uint64_t keyspace,
                                       std::uint64_t seed)
    : keyspace_(keyspace == 0 ? 1 : keyspace), state_(seed) {
  for (std::size_t at = bytes.find("__"); at != std::string_view::npos;) {
    const std::string_view here = bytes.substr(at, width);
    if (here == random_int_placeholder) at_.push_back({at, kind::random_int});
    else if (here == sequence_placeholder) at_.push_back({at, kind::sequence});
    else if (here == random_string_placeholder) at_.push_back({at, kind::random_string, width});
    else if (const std::size_t n = random_string_marker_at(bytes.substr(at))) {
      at_.push_back({at, kind::random_string, n});
      at = bytes.find("__", at + n);
      continue;
    } else {
      at = bytes.find("__", at + 1);
      continue;
    }
    has_sequence_ = has_sequence_ || at_.back().what == kind::sequence;
    at = bytes.find("__", at + width);
  }
}

std::uint64_t next_random_bits(std::uint64_t& state) {
  // splitmix64: one add and a few multiplies per number, and every seed gives a full sequence.
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t random_below(std::uint64_t n, std::uint64_t& state) {
  // Into [0, n) by the high half of a 128-bit product: no division, no modulo bias to speak of
  // for an n far below 2^64.
  return static_cast<std::uint64_t>((static_cast<uint128>(next_random_bits(state)) * n) >> 64);
}

std::uint64_t placeholder_filler::next_bits() { return next_random_bits(state_); }

std::uint64_t placeholder_filler::next() { return random_below(keyspace_, state_); }

void placeholder_filler::fill(std::span<char> bytes) {
  const std::uint64_t sequence =
      has_sequence_ ? next_sequence.fetch_add(1, std::memory_order_relaxed) : 0;
  for (const place& p : at_) {
    char* to = bytes.data() + p.at;
    switch (p.what) {
      case kind::random_int: write_digits(to, next()); break;
      case kind::sequence: write_digits(to, sequence); break;
      case kind::random_string: {
        // 12 base-36 digits of each 64-bit draw (36^12 < 2^64: every string can come).
        static constexpr char alphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz";
        for (std::size_t done = 0; done < p.length;) {
          std::uint64_t n = next_bits();
          for (const std::size_t end = std::min(p.length, done + width); done < end; ++done, n /= 36)
            to[done] = alphabet[n % 36];
        }
        break;
      }
    }
  }
}

void placeholder_filler::append_filled(std::string_view bytes, gather_queue& out) {
  std::byte* at = out.append_in_place(bytes.size());
  std::memcpy(at, bytes.data(), bytes.size());
  fill({reinterpret_cast<char*>(at), bytes.size()});
}

std::uint64_t next_placeholder_seed() {
  static std::atomic<std::uint64_t> counter{0x2545f4914f6cdd1dULL};
  return counter.fetch_add(0x9e3779b97f4a7c15ULL, std::memory_order_relaxed);
}

std::string expand_payloads(std::string_view text) {
  return expand_sized(text, "__payload_", 0, max_payload, "a payload placeholder", {},
                      [](std::size_t n) { return std::string(n, 'x'); });
}

std::string expand_random_strings(std::string_view text) {
  return expand_sized(text, "__rand_str_", min_random_string, max_random_string,
                      "a random string's placeholder", random_string_placeholder, random_string_marker);
}

std::size_t expanded_size(user_call call) {
  // Each __payload_N__ or __rand_str_N__ counts as its N bytes, the rest as written.
  auto size_of = [](std::string_view text) {
    std::size_t size = text.size();
    for (const std::string_view open : {std::string_view("__payload_"), std::string_view("__rand_str_")}) {
      for (auto at = text.find(open); at != std::string_view::npos; at = text.find(open, at + 1)) {
        std::size_t n = 0;
        const char* digits = text.data() + at + open.size();
        const auto [end, ec] = std::from_chars(digits, text.data() + text.size(), n);
        if (ec != std::errc{} || end == digits || !std::string_view(end, text.data() + text.size() - end).starts_with("__"))
          continue;
        const std::size_t written = static_cast<std::size_t>(end - (text.data() + at)) + 2;
        size = size - written + n;
      }
    }
    return size;
  };
  std::size_t total = 0;
  for (const request_field& f : fields_of(call))
    if (f.sized) total += size_of(*f.text);
  return total;
}

user_call with_payloads(user_call call) {
  auto expand = [](std::string& s) {
    if (s.find("__payload_") != std::string::npos) s = expand_payloads(s);
    if (s.find("__rand_str_") != std::string::npos) s = expand_random_strings(s);
  };
  for (const request_field& f : fields_of(call))
    if (f.sized) expand(*f.text);
  return call;
}

}  // namespace wirebench
