#include "base64.hpp"

#include <array>

namespace wirebench::http {
namespace {

constexpr std::string_view standard = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Each character's six bits, in either alphabet; -1 for any other.
constexpr std::array<signed char, 256> values = [] {
  std::array<signed char, 256> v{};
  v.fill(-1);
  for (std::size_t i = 0; i < 64; ++i) {
    v[static_cast<unsigned char>(standard[i])] = static_cast<signed char>(i);
    v[static_cast<unsigned char>(url[i])] = static_cast<signed char>(i);
  }
  return v;
}();

}  // namespace

void append_base64(std::string& out, std::span<const std::byte> bytes, bool url_safe, bool pad) {
  const std::string_view alphabet = url_safe ? url : standard;
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const unsigned n = std::to_integer<unsigned>(bytes[i]) << 16 | std::to_integer<unsigned>(bytes[i + 1]) << 8 |
                       std::to_integer<unsigned>(bytes[i + 2]);
    const char group[4] = {alphabet[n >> 18], alphabet[(n >> 12) & 63], alphabet[(n >> 6) & 63], alphabet[n & 63]};
    out.append(group, 4);
  }
  const std::size_t left = bytes.size() - i;
  if (left == 0) return;
  unsigned n = std::to_integer<unsigned>(bytes[i]) << 16;
  if (left == 2) n |= std::to_integer<unsigned>(bytes[i + 1]) << 8;
  out.push_back(alphabet[n >> 18]);
  out.push_back(alphabet[(n >> 12) & 63]);
  if (left == 2) out.push_back(alphabet[(n >> 6) & 63]);
  if (pad) out.append(left == 2 ? 1 : 2, '=');
}

void base64_decoder::emit_partial(std::string& out) {
  // Two characters make one byte (12 bits, the last 4 zero); three make two (18 bits, 2 zero).
  if (count_ == 2) out.push_back(static_cast<char>(bits_ >> 4));
  if (count_ == 3) {
    out.push_back(static_cast<char>(bits_ >> 10));
    out.push_back(static_cast<char>(bits_ >> 2));
  }
}

bool base64_decoder::feed(std::string_view text, std::string& out) {
  for (const char c : text) {
    if (broken_) return false;
    if (c == '=') {
      if (pads_needed_ > 0) {  // the second of "=="
        pads_needed_ = 0;
        continue;
      }
      if (count_ < 2) return !(broken_ = true);  // "x=" or a '=' between groups
      emit_partial(out);
      pads_needed_ = count_ == 2 ? 1 : 0;  // "xx==" owes one more; "xxx=" is whole
      count_ = 0;
      bits_ = 0;
      continue;
    }
    const signed char v = values[static_cast<unsigned char>(c)];
    if (v < 0 || pads_needed_ > 0) return !(broken_ = true);
    bits_ = bits_ << 6 | static_cast<unsigned>(v);
    if (++count_ == 4) {
      out.push_back(static_cast<char>(bits_ >> 16));
      out.push_back(static_cast<char>(bits_ >> 8));
      out.push_back(static_cast<char>(bits_));
      count_ = 0;
      bits_ = 0;
    }
  }
  return !broken_;
}

bool base64_decoder::finish(std::string& out) {
  if (broken_ || pads_needed_ > 0 || count_ == 1) return false;
  emit_partial(out);
  count_ = 0;
  bits_ = 0;
  return true;
}

bool decode_base64(std::string_view text, std::string& out) {
  out.clear();
  base64_decoder d;
  return d.feed(text, out) && d.finish(out);
}

}  // namespace wirebench::http
