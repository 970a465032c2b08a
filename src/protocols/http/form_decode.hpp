#pragma once
// A query value as application/x-www-form-urlencoded writes it: '+' a space, %XX a byte. The REST
// greet's name and Connect's GET message are read with it. Inline: the greet reads one per call.
#include <string>
#include <string_view>

namespace wirebench::http {

inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// `in` decoded into `out` (replaced); false on a '%' without two hex digits after it.
inline bool form_decoded(std::string_view in, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '+') {
      out.push_back(' ');
    } else if (in[i] == '%') {
      if (i + 2 >= in.size()) return false;
      const int hi = hex_digit(in[i + 1]), lo = hex_digit(in[i + 2]);
      if (hi < 0 || lo < 0) return false;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else {
      out.push_back(in[i]);
    }
  }
  return true;
}

}  // namespace wirebench::http
