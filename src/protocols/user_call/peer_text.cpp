#include "wirebench/protocols/peer_text.hpp"

namespace wirebench {

std::string peer_text(std::string_view text, std::size_t most) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  std::size_t shown = text.size() > most ? most : text.size();
  // Not inside a character: a cut UTF-8 sequence would make the line invalid text (and JSON).
  while (shown > 0 && shown < text.size() && (static_cast<unsigned char>(text[shown]) & 0xc0) == 0x80) --shown;
  out.reserve(shown + 16);
  for (std::size_t i = 0; i < shown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (shown < text.size()) out += "\xe2\x80\xa6 (" + std::to_string(text.size()) + " bytes)";
  return out;
}

}  // namespace wirebench
