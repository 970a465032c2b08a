#pragma once
// Parameters shared by the protocol tests: every registered protocol over every transport, and
// the exact request/reply bytes of each framing (what a foreign client would send).
#include <string>
#include <string_view>
#include <unistd.h>

#include "wirebench/protocols/registry.hpp"

namespace wirebench::test {

inline std::string transport_endpoint(const std::string& transport) {
  static int counter = 0;
  const std::string unique = std::to_string(::getpid()) + "-" + std::to_string(++counter);
  if (transport == "tcp") return "tcp://127.0.0.1:0";
  if (transport == "tcp6") return "tcp://[::1]:0";
  if (transport == "unix") return "unix:/tmp/wirebench-" + unique + ".sock";
  return "unix:@wirebench-" + unique;
}

inline std::string big_endian32(std::uint32_t n) {
  return {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
          static_cast<char>(n)};
}

// `text` with the value of every HTTP/1.1 Date header set to the epoch's, as frame_for writes it:
// the exact bytes of a response but for the time it was sent. A value not in the IMF-fixdate
// form (29 characters ending in " GMT") is left as it is, so the comparison fails.
inline std::string mask_http_dates(std::string text) {
  constexpr std::string_view name = "\r\nDate: ", epoch = "Thu, 01 Jan 1970 00:00:00 GMT";
  for (auto at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const auto value = at + name.size();
    if (value + epoch.size() + 2 <= text.size() &&
        text.compare(value + epoch.size(), 2, "\r\n") == 0 &&
        text.compare(value + epoch.size() - 4, 4, " GMT") == 0)
      text.replace(value, epoch.size(), epoch);
  }
  return text;
}

// The bytes of a greet request (or its reply) in the protocol's framing, as a foreign peer would
// write them. For mux and msgpack-rpc, `mux_type` is 1 (request) or 2 (reply) and `id` the
// request id (below 128; names below 32 bytes).
inline std::string frame_for(const std::string& protocol, const std::string& payload,
                             char mux_type = 1, std::uint32_t id = 1) {
  if (protocol == "line") return payload + "\n";
  if (protocol == "http1") {  // GET request, or the server's exact 200 response
    if (mux_type == 1) return "GET /greet?name=" + payload + " HTTP/1.1\r\nHost: test\r\n\r\n";
    const std::string body = "{\"greeting\":\"" + payload + "\"}";
    return "HTTP/1.1 200 OK\r\nServer: wirebench\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\n"
           "Content-Type: application/json\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  }
  if (protocol == "resp" || protocol == "resp-sync" || protocol == "redis-server") {
    // GREET name (ECHO "hello, name" for the real redis-server), or the bulk-string reply.
    auto bulk = [](const std::string& s) { return "$" + std::to_string(s.size()) + "\r\n" + s + "\r\n"; };
    if (mux_type == 2) return bulk(payload);
    if (protocol == "redis-server") return "*2\r\n" + bulk("ECHO") + bulk("hello, " + payload);
    return "*2\r\n" + bulk("GREET") + bulk(payload);
  }
  if (protocol == "msgpack-rpc") {  // [0, id, "greet", [payload]] or [1, id, nil, payload]
    const std::string str = std::string(1, static_cast<char>(0xa0 | payload.size())) + payload;
    if (mux_type == 1) return std::string("\x94\x00", 2) + static_cast<char>(id) + "\xa5greet\x91" + str;
    return std::string("\x94\x01", 2) + static_cast<char>(id) + "\xc0" + str;
  }
  if (protocol == "mux")
    return big_endian32(static_cast<std::uint32_t>(payload.size() + 5)) + mux_type +
           big_endian32(id) + payload;
  return big_endian32(static_cast<std::uint32_t>(payload.size())) + payload;
}

}  // namespace wirebench::test
