#pragma once
// What every protocol backend registers: a server and a client for the greet call (request: a
// name; reply: "hello, <name>"), and for the protocols that have one, a client that sends the
// user's own call instead (user_call.hpp). The harness only ever talks to these types
// (protocol_client.hpp, protocol_server.hpp); it never branches on a protocol's name (h2load's
// Session interface, brpc's protocol table). The entry itself is identity and factories; what it
// can do, what its reference server needs and what its tests use are structs of their own.
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "wirebench/codec/client_codec.hpp"
#include "wirebench/codec/server_codec.hpp"
#include "wirebench/protocols/client_config.hpp"
#include "wirebench/protocols/protocol_capabilities.hpp"
#include "wirebench/protocols/protocol_client.hpp"
#include "wirebench/protocols/protocol_server.hpp"
#include "wirebench/protocols/protocol_test_hooks.hpp"
#include "wirebench/protocols/reference_server.hpp"
#include "wirebench/protocols/server_config.hpp"

namespace wirebench {

// A protocol's entry in the registry (registry.hpp): who it is, what it can do, the factories
// of its server and client, and what the tools and tests need to know besides.
struct protocol {
  std::string name;
  std::string summary;
  // The libraries it is built on, as (library, version) pairs for the results' `libraries` block
  // and `wirebench --version`: the runtime version where the library reports one, else the
  // headers'. Entries that share a library may each name it; library_versions() keeps one.
  std::function<std::vector<std::pair<std::string, std::string>>()> libraries = {};
  protocol_capabilities can = {};  // what the registry checks configs against
  reference_server reference = {};  // servers we did not write, or run apart
  protocol_test_hooks test = {};    // the greet call's bytes, for the tests
  // Both throw std::exception at start-up (bad config, an endpoint that cannot be bound).
  // A backend with client_codecs leaves make_client empty: the registry makes it, the codecs on
  // the client engine; one with server_codecs leaves make_server empty alike.
  std::function<std::unique_ptr<protocol_server>(const server_config&)> make_server = {};
  std::function<std::unique_ptr<protocol_client>(const client_config&)> make_client = {};
  // Clients on the client engine: the codec factory make_client runs its connections on, so the
  // codec can be driven alone (tests/fuzz). Empty for clients with a transport of their own
  // (gRPC, resp-sync).
  std::function<client_codec_factory(const client_config&)> client_codecs = {};
  // Servers on the session server: the codec factory its connections run (codec/server_codec.hpp),
  // so that the codec can be driven alone (tests, the server-codec fuzz target). A backend with
  // server_codecs leaves make_server empty: the registry makes it, the codecs on the session server
  // (server/codec_session.hpp). Empty for servers of their own (grpc++, redis-server).
  std::function<server_codec_factory(const server_config&)> server_codecs = {};
};

}  // namespace wirebench
