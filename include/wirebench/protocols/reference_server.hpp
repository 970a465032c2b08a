#pragma once
// What a protocol's entry says of the server it runs when that server is not one of ours, or is
// run beside another's (a real redis-server, grpc++ in a process of its own): what the tools that
// start servers (`serve`, scripts/soak, the benchmarks, the tests) must know.
#include <functional>
#include <string>

namespace wirebench {

struct reference_server {
  // The protocol whose server this entry runs, when the two differ only in their clients
  // (http1-close: http1's server); empty for an entry with a server of its own. Tools that need
  // each server once (scripts/soak, through `wirebench list --json`) skip such entries.
  std::string server_of = {};
  // The program its server runs when the server is not ours (a real redis-server, from the Debian
  // package of the same name): `serve` and the tests need it installed. Empty for our servers.
  std::string server_program = {};
  // Its client and server share process-wide machinery when both run in one process (gRPC core's
  // pollers and executor), which slows both: benchmarks then run the server as a child process.
  bool own_process_server = false;
  // Run once by a process that will run this protocol's clients, before it starts any thread
  // (`run`, `call`, the benchmarks): settings its library reads once, when it starts. gRPC: the
  // poller (grpc_client_polling.cpp). Empty for most.
  std::function<void()> prepare_client_process = {};
};

}  // namespace wirebench
