#include "resolve_flag.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <asio/ip/address.hpp>

#include "user_call_options.hpp"

namespace wirebench::app {
namespace {

// Host names compare without case (RFC 4343), as curl matches its rules.
bool same_host(std::string_view a, std::string_view b) {
  return std::ranges::equal(a, b, [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

}  // namespace

void add_resolve_flag(CLI::App& cmd, std::vector<std::string>& rules) {
  cmd.add_option("--resolve", rules,
                 "HOST:PORT:ADDR: dial ADDR for a --url on HOST:PORT, which stays its Host header "
                 "and TLS name (curl's); may be given several times")
      ->type_name("HOST:PORT:ADDR");
}

std::optional<resolve_rule> parse_resolve(std::string_view text, std::string& problem) {
  auto fail = [&](const std::string& why) {
    problem = "--resolve " + std::string(text) + ": " + why +
              " (HOST:PORT:ADDR, e.g. example.com:443:127.0.0.1)";
    return std::nullopt;
  };
  const auto first = text.find(':');
  if (first == std::string_view::npos || first == 0) return fail("no host");
  const auto second = text.find(':', first + 1);
  if (second == std::string_view::npos) return fail("no address");
  resolve_rule rule;
  rule.host = std::string(text.substr(0, first));
  const std::string_view port = text.substr(first + 1, second - first - 1);
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || value == 0 ||
      value > 65535)
    return fail("the port must be 1 to 65535");
  rule.port = static_cast<std::uint16_t>(value);
  std::string_view address = text.substr(second + 1);
  if (address.size() > 2 && address.front() == '[' && address.back() == ']')
    address = address.substr(1, address.size() - 2);
  asio::error_code bad;
  const auto ip = asio::ip::make_address(std::string(address), bad);
  if (bad) return fail("'" + std::string(address) + "' is not an IP address");
  rule.address = ip.to_string();
  return rule;
}

std::optional<endpoint> resolve_url(const std::vector<std::string>& rules, const named_server& url,
                                    std::string& problem) {
  std::optional<resolve_rule> match;
  for (const std::string& text : rules) {
    const auto rule = parse_resolve(text, problem);
    if (!rule) return std::nullopt;
    if (!match && same_host(rule->host, url.host) && rule->port == url.port) match = rule;
  }
  if (!match && !rules.empty()) {
    problem = "--resolve: no rule names the --url's " + url.host + ":" + std::to_string(url.port);
    return std::nullopt;
  }
  if (!match) return url_endpoint(url, problem);
  endpoint where;
  where.address = match->address;
  where.port = match->port;
  return where;
}

}  // namespace wirebench::app
