#pragma once
// An absolute http:// or https:// URL as curl and h2load take it (--url, a mix's requests).
// Start-up code: throws setting_error("url") with a one-line message for the user.
#include <cstdint>
#include <string>
#include <string_view>

namespace wirebench::http {

struct http_url {
  bool https = false;
  std::string host;       // as written, without IPv6 brackets ("127.0.0.1", "::1", "example.com")
  std::uint16_t port = 0;  // the URL's, or the scheme's default (80, 443)
  std::string authority;  // host[:port] as written: the Host header / :authority
  std::string target;     // /path?query ("/" when the URL has no path); no fragment
};

// http://host[:port][/path][?query] or https://...; a fragment (#...) is dropped, as clients do.
http_url parse_http_url(std::string_view url);

}  // namespace wirebench::http
