#pragma once
// The server a macro benchmark loads: in this process, or `wirebench serve` as a child process
// for a backend whose client and server would share process-wide machinery in one process
// (reference_server::own_process_server; gRPC), as `wirebench run` always does.
#include <memory>

#include "wirebench/load/server_process.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::bench {

class bench_server {
 public:
  // Throws std::exception when the server cannot start.
  bench_server(const protocol& p, const server_config& c);
  endpoint local_endpoint() const;
  void stop();

 private:
  std::unique_ptr<protocol_server> in_process_;
  std::unique_ptr<server_process> child_;
};

}  // namespace wirebench::bench
