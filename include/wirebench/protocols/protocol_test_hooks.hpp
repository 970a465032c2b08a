#pragma once
// What a protocol's entry gives the tests that no other code needs: its greet call's bytes as a
// foreign peer writes them.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace wirebench {

// The greet call's bytes as a foreign peer writes them, written by hand from the protocol's
// specification (not by our codecs): the tests that speak a protocol byte by byte (exact bytes,
// lying servers, bad input) take them from here. `request`: the call for `name` as call `id`;
// `reply`: the server's answer carrying `greeting` (an HTTP Date header as the epoch's).
// `id` below 128 and text below 32 bytes suffice where a protocol's encoding would grow.
struct greet_wire {
  std::function<std::string(std::string_view name, std::uint32_t id)> request;
  std::function<std::string(std::string_view greeting, std::uint32_t id)> reply;
};

struct protocol_test_hooks {
  // Its greet call's bytes; empty (both functions) when they cannot be written by hand (HTTP/2's
  // HPACK and handshake, gRPC's).
  greet_wire wire = {};
};

}  // namespace wirebench
