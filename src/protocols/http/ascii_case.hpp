#pragma once
// ASCII case for HTTP's case-insensitive names (header fields, RFC 9110 §5.1), without the
// locale's tolower (a call per byte, and a locale's idea of case).
#include <algorithm>
#include <string_view>

namespace wirebench::http {

inline char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// True when `name` is `lower_name` in any case (`lower_name` is lower-case already).
inline bool equals_lower(std::string_view name, std::string_view lower_name) {
  return name.size() == lower_name.size() &&
         std::equal(name.begin(), name.end(), lower_name.begin(), [](char a, char b) { return ascii_lower(a) == b; });
}

}  // namespace wirebench::http
