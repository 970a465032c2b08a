#include "json_string.hpp"

#include <cstdint>

namespace wirebench::http {

// Unicode's table of well-formed byte sequences (The Unicode Standard, Table 3-7).
bool is_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p != end) {
    const unsigned char b = *p;
    if (b < 0x80) {
      ++p;
      continue;
    }
    std::size_t tail;
    unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
    if (b >= 0xC2 && b <= 0xDF) {
      tail = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      tail = 2;
      if (b == 0xE0) low = 0xA0;   // overlong
      if (b == 0xED) high = 0x9F;  // surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
      tail = 3;
      if (b == 0xF0) low = 0x90;   // overlong
      if (b == 0xF4) high = 0x8F;  // past U+10FFFF
    } else {
      return false;
    }
    if (static_cast<std::size_t>(end - p) <= tail) return false;
    if (p[1] < low || p[1] > high) return false;
    for (std::size_t i = 2; i <= tail; ++i)
      if (p[i] < 0x80 || p[i] > 0xBF) return false;
    p += tail + 1;
  }
  return true;
}

void append_json_escaped(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  std::size_t plain_from = 0;  // runs that need no escape are appended whole
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text, plain_from, i - plain_from);
    plain_from = i + 1;
    out.push_back('\\');
    switch (c) {
      case '"': out.push_back('"'); break;
      case '\\': out.push_back('\\'); break;
      case '\b': out.push_back('b'); break;
      case '\f': out.push_back('f'); break;
      case '\n': out.push_back('n'); break;
      case '\r': out.push_back('r'); break;
      case '\t': out.push_back('t'); break;
      default:
        out.append("u00");
        out.push_back(hex[c >> 4]);
        out.push_back(hex[c & 15]);
    }
  }
  out.append(text, plain_from, text.size() - plain_from);
}

}  // namespace wirebench::http
