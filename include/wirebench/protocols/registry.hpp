#pragma once
// The protocols the harness can run, by name. A protocol's folder registers it (a
// protocol_registration at namespace scope), so a protocol joins every tool, test suite and
// benchmark by being linked in: no list of names anywhere else.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/protocol.hpp"
#include "wirebench/protocols/user_call_form.hpp"

namespace wirebench {

class protocol_registry {
 public:
  // Throws std::invalid_argument if the name is taken.
  void add(protocol p);
  const protocol* find(std::string_view name) const;
  std::span<const protocol> all() const { return protocols_; }
  // The user-call forms its protocols send (protocol_capabilities::user_calls), each once, by rank.
  std::vector<const user_call_form*> forms() const;
  const user_call_form* find_form(std::string_view name) const;

  // Every protocol linked into this program (each protocol_registration's), ordered by rank,
  // then by the order each registration adds its entries. Built on first use, so call it from
  // main() or later, never from a static initializer.
  static const protocol_registry& builtin();

 private:
  std::vector<protocol> protocols_;
};

// The name a TLS client of `c` sends as SNI and checks the server's certificate against: the one
// given (tls_options::server_name: --tls-server-name, --resolve), else the user call's authority
// when it names one (a URL's host), else the host dialed ("localhost" for a Unix socket).
std::string tls_server_name(const client_config& c);

// A client config whose user call the protocol cannot send (protocol_capabilities::user_calls): what the
// registry's make_client and client_codecs throw, never replacing the call by the greet call.
// The CLI words it with its own flags (app/error_text.hpp).
struct user_call_refused : setting_error {
  user_call_refused(std::string protocol_name, const user_call_form* sends_form,
                    const user_call_form* given_form);
  std::string protocol;          // the protocol's name
  const user_call_form* sends;  // what its client sends (nullptr: only the greet call)
  const user_call_form* given;  // what the config asked for
};

// A protocol's folder joins builtin() with one of these at namespace scope in a source file,
// named for the protocol (a unity build compiles a target's files as one):
//   const protocol_registration toy_registration{90, [](protocol_registry& r) { r.add({...}); }};
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
