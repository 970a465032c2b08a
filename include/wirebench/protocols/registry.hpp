#pragma once
// The protocols the harness can run, by name. A protocol's folder registers it (a
// protocol_registration at namespace scope), so a protocol joins every tool, test suite and
// benchmark by being linked in: no list of names anywhere else.
#include <span>
#include <string_view>
#include <vector>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

class protocol_registry {
 public:
  // Throws std::invalid_argument if the name is taken.
  void add(protocol p);
  const protocol* find(std::string_view name) const;
  std::span<const protocol> all() const { return protocols_; }

  // Every protocol linked into this program (each protocol_registration's), ordered by rank,
  // then by the order each registration adds its entries. Built on first use, so call it from
  // main() or later, never from a static initializer.
  static const protocol_registry& builtin();

 private:
  std::vector<protocol> protocols_;
};

// "" when `p`'s client can send `call` (protocol::user_calls); else why not, one line for the
// user. The registry's make_client and client_codecs refuse such a config with this text.
std::string check_user_call(const protocol& p, const user_call& call);

// A protocol's folder joins builtin() with one of these at namespace scope in a source file:
//   const protocol_registration registered{40, [](protocol_registry& r) { r.add({...}); }};
// `rank` orders the listing (help, `wirebench protocols`, the tests): simple framings first
// (line 10, length-prefixed 20, mux 30, msgpack-rpc 40, HTTP/1.1 50, HTTP/2 60, gRPC 70,
// RESP 80). `add` runs once, when builtin() is first built, on that thread. The library these
// sources go into is linked whole (src/protocols/CMakeLists.txt), so no registration is dropped.
class protocol_registration {
 public:
  using add_function = void (*)(protocol_registry&);
  protocol_registration(int rank, add_function add);
};

}  // namespace wirebench
