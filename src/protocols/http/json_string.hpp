#pragma once
// A JSON string's contents (RFC 8259 §7) from UTF-8 text, escaped byte for byte as
// nlohmann::json::dump() does (\" \\ \b \f \n \r \t, other control characters \u00xx, everything
// else as is). Written by hand for the reply path: nlohmann builds a json value, allocates, and
// reports text that is not UTF-8 only by throwing.
#include <string>
#include <string_view>

namespace wirebench::http {

// True if `text` is well-formed UTF-8 (no overlong forms, surrogates, or code points past U+10FFFF).
bool is_utf8(std::string_view text);

// Appends `text`, escaped, without the quotes. `text` must be UTF-8 (is_utf8).
void append_json_escaped(std::string& out, std::string_view text);

}  // namespace wirebench::http
