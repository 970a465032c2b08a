#pragma once
// What several families' user calls (user_call_form.hpp) read alike, from the flags users know
// from curl: -H's header line and -d's text or @FILE. Start-up code: each throws
// std::invalid_argument with a one-line message for the user.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wirebench {

// "name: value" (curl's -H): the name a token (RFC 9110), the value trimmed of blanks; no CR
// or LF anywhere.
std::pair<std::string, std::string> parse_header(std::string_view line);

// curl's -d: "@path" is that file's bytes (as they are: no newline stripped), anything else the
// text itself.
std::string read_data_argument(std::string_view arg);

}  // namespace wirebench
