#pragma once
// Reading a user call (user_call.hpp) from the flags users know from the peer tools: curl's and
// h2load's URL, -H and -d, redis-cli's command line. Start-up code: each throws
// std::invalid_argument with a one-line message for the user.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wirebench {

struct http_url {
  bool https = false;
  std::string host;       // as written, without IPv6 brackets ("127.0.0.1", "::1", "example.com")
  std::uint16_t port = 0;  // the URL's, or the scheme's default (80, 443)
  std::string authority;  // host[:port] as written: the Host header / :authority
  std::string target;     // /path?query ("/" when the URL has no path); no fragment
};

// http://host[:port][/path][?query] or https://...; a fragment (#...) is dropped, as clients do.
http_url parse_http_url(std::string_view url);

// "name: value" (curl's -H): the name a token (RFC 9110), the value trimmed of blanks; no CR
// or LF anywhere.
std::pair<std::string, std::string> parse_header(std::string_view line);

// curl's -d: "@path" is that file's bytes (as they are: no newline stripped), anything else the
// text itself.
std::string read_data_argument(std::string_view arg);

// Splits a command line into arguments as redis-cli does: blanks separate words; a word may be
// "double quoted" (escapes \n \r \t \b \a \\ \" and \xHH) or 'single quoted' (only \'), and a
// closing quote must end the word (our RESP server's inline-command splitter, Redis's
// sdssplitargs). Throws on an unbalanced quote or an empty command.
std::vector<std::string> split_command(std::string_view line);

}  // namespace wirebench
