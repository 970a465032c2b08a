#pragma once
// --resolve HOST:PORT:ADDR, as curl's: a --url whose host and port are HOST:PORT is dialed at
// ADDR, with no lookup, and HOST stays its Host header / :authority and the name TLS sends (SNI)
// and verifies. Given several times, the first rule that names the URL's host and port applies.
// Shared by `call` and `run`. (--connect takes addresses only, so a URL is the one name to map.)
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "wirebench/protocols/user_call_form.hpp"
#include "wirebench/transport/endpoint.hpp"

namespace wirebench::app {

struct resolve_rule {
  std::string host;
  std::uint16_t port = 0;
  std::string address;  // an IP address (IPv6 without its brackets)
};

// The usage error for --resolve without a --url to map, or beside a --connect that says where
// to dial.
inline constexpr const char* resolve_needs_url =
    "--resolve maps a --url's host to an address: give --url, without --connect";

void add_resolve_flag(CLI::App& cmd, std::vector<std::string>& rules);

// The rule `text` gives, or nullopt and the one-line problem.
std::optional<resolve_rule> parse_resolve(std::string_view text, std::string& problem);

// Where `url` (the server a --url names) is dialed: the first rule's address for its host and
// port, else the system's resolver (url_endpoint). nullopt and a one-line problem (exit status 2) when a rule does not
// parse, when rules are given and none names the URL's host:port (a typo would otherwise dial
// the real host), or when the name does not resolve.
std::optional<endpoint> resolve_url(const std::vector<std::string>& rules, const named_server& url,
                                    std::string& problem);

}  // namespace wirebench::app
