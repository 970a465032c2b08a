// `grpcpp`, `grpcpp-stream`, `grpcpp-batch`: the greet call over gRPC through grpc++ (and
// protobuf), the reference implementation beside ours (`grpc`, ../grpc), as redis-server is for
// RESP: as unary rpcs, as id-multiplexed messages on a bidirectional stream, and as the same with
// up to 10 requests per message. One server (the Echo service) answers all three.
#include <google/protobuf/stubs/common.h>
#include <grpcpp/grpcpp.h>

#include "grpc_backend.hpp"
#include "../grpc/grpc_call.hpp"
#include "wirebench/protocols/library_versions.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

std::vector<std::pair<std::string, std::string>> grpcpp_libraries() {
  std::vector<std::pair<std::string, std::string>> versions = {
      {"grpc++", grpc::Version()},
      {"protobuf", google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION)}};
  // Not a version, but it sets what its client costs (grpc_client_polling.cpp): known once
  // gRPC has started in this process.
  if (std::string poller = grpc_backend::grpc_poller(); !poller.empty())
    versions.emplace_back("grpc-poller", std::move(poller));
  return versions;
}

// What the three share: one server (the Echo service) out of process, gRPC's TLS, its options.
protocol grpcpp_entry(std::string name, std::string summary,
                    std::function<std::unique_ptr<protocol_client>(const client_config&)> client) {
  return {
      .name = std::move(name),
      .summary = std::move(summary),
      .libraries = grpcpp_libraries,
      // The completion-queue engine first (the default): faster here, and it honours --threads
      // (measured in the issue 5 closing note; see grpc_engine.hpp).
      .can = {.multiplexed = true,
              .server_engines = {"cq", "callback"},
              .tls = true,        // gRPC's own TLS credentials (grpc_tls.hpp), ALPN h2 inside gRPC
              .keepalive = true,  // gRPC's own keep-alive (channel arguments)
              .server_options = grpc_backend::server_options(),
              .fit_server_to_load = grpc_backend::fit_server_to_load},
      // In one process with its client, the server's queues and the client's share gRPC core's
      // pollers: 42k against 60k unary calls/s at 16 workers out of process (issue 5 follow-up).
      .reference = {.own_process_server = true,
                    .prepare_client_process = grpc_backend::start_grpc_for_clients},
      .make_server = grpc_backend::make_server,
      .make_client = std::move(client),
  };
}

void register_grpc_protocols(protocol_registry& registry) {
  protocol unary = grpcpp_entry(
      "grpcpp", "gRPC unary through grpc++: Echo.Greet(GreetRequest) -> GreetReply, calls over C channels",
      grpc_backend::make_call_client);
  unary.can.user_calls = &grpc_call_form();  // any method, from its .proto
  registry.add(std::move(unary));
  protocol stream = grpcpp_entry(
      "grpcpp-stream", "gRPC bidi stream through grpc++, Echo.GreetStream: one request per message, matched by id",
      [](const client_config& c) { return grpc_backend::make_stream_client(c, 1); });
  stream.reference.server_of = "grpcpp";
  registry.add(std::move(stream));
  protocol batch = grpcpp_entry(
      "grpcpp-batch", "gRPC bidi stream through grpc++, Echo.GreetBatchStream: up to 10 requests per message, by id",
      [](const client_config& c) { return grpc_backend::make_stream_client(c, 10); });
  batch.reference.server_of = "grpcpp";
  registry.add(std::move(batch));
}

const protocol_registration grpcpp_registration{70, register_grpc_protocols};

}  // namespace

}  // namespace wirebench
