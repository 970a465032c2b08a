#pragma once
// How the Echo service is served: the server (grpc_server.cpp) owns the grpc::Server and its
// listening port; an engine supplies the service and whatever runs it.
//   cq        the async completion-queue API: `threads` completion queues, each drained by one
//             thread of ours (pinned to cpus[i % size] when given); a call lives on one queue,
//             so its state needs no lock.
//   callback  grpc++'s callback API: reactors run on gRPC's own threads, which it sizes itself
//             (server_config.threads and cpus are not honoured).
#include <cstdint>
#include <memory>
#include <vector>

#include <grpcpp/grpcpp.h>

namespace wirebench::grpc_backend {

class grpc_engine {
 public:
  virtual ~grpc_engine() = default;
  // Before BuildAndStart: registers the service (and completion queues).
  virtual void add_to(grpc::ServerBuilder& builder) = 0;
  // After BuildAndStart: starts taking calls.
  virtual void start() = 0;
  // After grpc::Server::Shutdown has returned (every call is over): stops and joins. Idempotent.
  virtual void stop() = 0;
  virtual std::uint64_t requests() const = 0;
};

std::unique_ptr<grpc_engine> make_callback_engine();
std::unique_ptr<grpc_engine> make_cq_engine(std::size_t threads, std::vector<int> cpus);

}  // namespace wirebench::grpc_backend
