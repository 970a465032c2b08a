#include "http_url.hpp"

#include <charconv>

#include "wirebench/core/setting_error.hpp"

namespace wirebench::http {
namespace {

[[noreturn]] void bad(const char* setting, const std::string& why) { throw setting_error(setting, why); }

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

}  // namespace wirebench::http
