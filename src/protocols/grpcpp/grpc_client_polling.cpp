// Which poller gRPC core runs in a client process. gRPC reads GRPC_POLL_STRATEGY once, when it
// starts (grpc_init), and its Linux default, epoll1, keeps one epoll set for the whole process:
// whichever thread waits on any completion queue reads any connection. With two client queue
// threads, one stream's replies were then read on one thread and completed on the other's queue,
// a wake-up and a hand-off per read: grpcpp-stream's client CPU per call went from 11 to 23 µs with
// a second thread (docs/PERFORMANCE.md, gRPC). `poll` polls, from each queue, only the connections
// of the calls on that queue, so a queue thread reads its own streams (11 µs with either count).
#include <cstdlib>
#include <mutex>

#include <grpc/grpc.h>

#include "grpc_backend.hpp"

// gRPC core's own (src/core/lib/iomgr/ev_posix.h; not in its public headers, exported by
// libgrpc): the poller it chose, once started. Used only to record it with a result.
const char* grpc_get_poll_strategy_name();

namespace wirebench::grpc_backend {

void start_grpc_for_clients() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (grpc_is_initialized()) return;  // started already (a server in this process): it stays
    // A user's own GRPC_POLL_STRATEGY wins. Ours is set only while gRPC starts, so that the
    // servers this process starts later (children inherit the environment) keep epoll1, which
    // is faster for a server with several threads.
    const bool users_choice = std::getenv("GRPC_POLL_STRATEGY") != nullptr;
    if (!users_choice) ::setenv("GRPC_POLL_STRATEGY", "poll", 1);
    grpc_init();  // never shut down: a later start would read the variable again
    if (!users_choice) ::unsetenv("GRPC_POLL_STRATEGY");
  });
}

std::string grpc_poller() {
  return grpc_is_initialized() ? grpc_get_poll_strategy_name() : std::string();
}

}  // namespace wirebench::grpc_backend
