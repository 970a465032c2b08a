#pragma once
// Parameters shared by the protocol tests: every registered protocol over every transport, and
// the exact request/reply bytes of each framing (what a foreign client would send).
#include <cctype>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>
#include <string_view>
#include <unistd.h>

#include "wirebench/protocols/registry.hpp"

namespace wirebench::test {

// A built-in protocol by name (the test fails at once, rather than crash, on a name not there).
inline const protocol& builtin_protocol(std::string_view name) {
  const protocol* p = protocol_registry::builtin().find(name);
  if (p == nullptr) throw std::invalid_argument("no protocol " + std::string(name));
  return *p;
}

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

// The bytes of a greet request (`type` 1) or its reply (2) as call `id`, as a foreign peer would
// write them: the protocol's own hand-written vectors (protocol_test_hooks::wire).
inline std::string frame_for(const std::string& protocol, const std::string& payload,
                             char type = 1, std::uint32_t id = 1) {
  const auto* p = protocol_registry::builtin().find(protocol);
  if (p == nullptr || !p->test.wire.request) throw std::logic_error(protocol + " has no greet bytes");
  return type == 1 ? p->test.wire.request(payload, id) : p->test.wire.reply(payload, id);
}

// Every registered protocol for which `wanted(protocol)` is true, by name.
template <class Predicate>
std::vector<std::string> protocols_where(Predicate wanted) {
  std::vector<std::string> names;
  for (const protocol& p : protocol_registry::builtin().all())
    if (wanted(p)) names.push_back(p.name);
  return names;
}

// Every registered protocol whose bytes a test can write by hand (protocol_test_hooks::wire).
inline std::vector<std::string> protocols_with_wire_bytes() {
  return protocols_where([](const protocol& p) { return static_cast<bool>(p.test.wire.request); });
}

// A server of the registered `protocol`, listening on a free loopback port, with `max_frame_bytes`
// (0: the default) and `threads`.
inline std::unique_ptr<protocol_server> start_server(const std::string& protocol,
                                                     std::size_t max_frame_bytes = 0,
                                                     std::size_t threads = 1) {
  server_config sc;
  if (max_frame_bytes != 0) sc.max_frame_bytes = max_frame_bytes;
  sc.threads = threads;
  return protocol_registry::builtin().find(protocol)->make_server(sc);
}

// A client of `p` that dials `server` (client_config's defaults otherwise).
inline std::unique_ptr<protocol_client> client_of(const protocol& p, const protocol_server& server) {
  client_config cc;
  cc.connect = server.local_endpoint();
  return p.make_client(cc);
}

// A protocol's name as a test's name: "msgpack-rpc" -> "msgpack_rpc".
inline std::string test_name_for(std::string protocol) {
  for (auto& ch : protocol)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return protocol;
}

}  // namespace wirebench::test
