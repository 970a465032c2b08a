#include "wirebench/protocols/user_call_parsing.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/input_file.hpp"

namespace wirebench {
namespace {

[[noreturn]] void bad(const char* setting, const std::string& why) { throw setting_error(setting, why); }

bool is_tchar(char c) {  // RFC 9110 §5.6.2
  const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return alnum || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

}  // namespace

std::pair<std::string, std::string> parse_header(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0)
    bad("header", "'" + std::string(line) + "': give 'name: value'");
  const std::string_view name = line.substr(0, colon);
  if (!std::all_of(name.begin(), name.end(), is_tchar))
    bad("header", "'" + std::string(line) + "': a header name has no spaces or separators");
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
  if (value.find_first_of("\r\n") != std::string_view::npos || value.find('\0') != std::string_view::npos)
    bad("header", "'" + std::string(name) + "': no CR, LF or NUL in a header value");
  return {std::string(name), std::string(value)};
}

std::string read_data_argument(std::string_view arg) {
  if (!arg.starts_with('@')) return std::string(arg);
  try {
    return read_input_file(std::string(arg.substr(1)), max_call_file_bytes, "");
  } catch (const std::invalid_argument& e) {
    bad("data", "@" + std::string(e.what()));
  }
}

}  // namespace wirebench
