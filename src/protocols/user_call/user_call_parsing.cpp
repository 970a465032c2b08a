#include "wirebench/protocols/user_call_parsing.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "../resp/resp_request_parser.hpp"
#include "wirebench/core/setting_error.hpp"

namespace wirebench {
namespace {

[[noreturn]] void bad(const char* setting, const std::string& why) { throw setting_error(setting, why); }

bool is_tchar(char c) {  // RFC 9110 §5.6.2
  const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return alnum || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

}  // namespace

http_url parse_http_url(std::string_view url) {
  http_url u;
  std::string_view rest;
  if (url.starts_with("http://")) {
    rest = url.substr(7);
  } else if (url.starts_with("https://")) {
    u.https = true;
    rest = url.substr(8);
  } else {
    bad("url", "'" + std::string(url) + "': give http://host[:port]/path or https://...");
  }
  if (const auto hash = rest.find('#'); hash != std::string_view::npos) rest = rest.substr(0, hash);
  const auto end = rest.find_first_of("/?");
  const std::string_view authority = rest.substr(0, end);
  std::string_view target = end == std::string_view::npos ? "" : rest.substr(end);
  if (authority.empty()) bad("url", "'" + std::string(url) + "': no host");
  if (authority.find('@') != std::string_view::npos)
    bad("url", "'" + std::string(url) + "': user:password@ is not supported (use -H 'Authorization: ...')");
  std::string_view host = authority, port_text;
  if (authority.front() == '[') {  // [IPv6]:port
    const auto close = authority.find(']');
    if (close == std::string_view::npos) bad("url", "'" + std::string(url) + "': unclosed [");
    host = authority.substr(1, close - 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty() && after.front() != ':') bad("url", "'" + std::string(url) + "': bad host");
    if (!after.empty()) port_text = after.substr(1);
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port_text = authority.substr(colon + 1);
  }
  if (host.empty()) bad("url", "'" + std::string(url) + "': no host");
  u.port = u.https ? 443 : 80;
  if (!port_text.empty()) {
    unsigned port = 0;
    const auto [p, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc{} || p != port_text.data() + port_text.size() || port == 0 || port > 65535)
      bad("url", "'" + std::string(url) + "': bad port '" + std::string(port_text) + "'");
    u.port = static_cast<std::uint16_t>(port);
  }
  for (const char c : target)
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
      bad("url", "'" + std::string(url) + "': spaces and control characters must be %-escaped");
  u.host = std::string(host);
  u.authority = std::string(authority);
  u.target = target.empty() ? "/" : target.front() == '?' ? "/" + std::string(target)
                                                           : std::string(target);
  return u;
}

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
  const std::string path(arg.substr(1));
  std::ifstream file(path, std::ios::binary);
  if (!file) bad("data", "@" + path + ": cannot read it: " + std::strerror(errno));
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// The RESP server's own splitter (Redis's sdssplitargs, which redis-cli uses too): a command
// given here is split exactly as our server splits an inline command.
std::vector<std::string> split_command(std::string_view line) {
  std::string storage;
  std::vector<std::size_t> ends;
  if (!resp::split_inline_args(line, storage, ends))
    bad("command", "'" + std::string(line) + "': unbalanced quotes (or a closing quote not "
        "followed by a blank)");
  if (ends.empty()) bad("command", "'" + std::string(line) + "': no command");
  std::vector<std::string> args;
  std::size_t from = 0;
  for (const std::size_t to : ends) {
    args.emplace_back(storage, from, to - from);
    from = to;
  }
  return args;
}

}  // namespace wirebench
