#pragma once
// The Date header's value (RFC 9110 §5.6.7, IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT") for
// now. Formatted once a second per thread, as nginx does, not once per response: a server answers
// hundreds of thousands of requests in that second.
#include <ctime>
#include <string_view>

namespace wirebench::http {

inline constexpr std::size_t http_date_size = 29;

// Valid until this thread's next call.
std::string_view http_date();
// The same for a given time (tests).
void format_http_date(std::time_t t, char (&out)[http_date_size]);

}  // namespace wirebench::http
