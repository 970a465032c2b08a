#pragma once
// The gRPC backends: one server for all three (on the engine server_config::engine names, see
// grpc_engine.hpp), and a client per shape on grpc++'s completion-queue API (threads in
// grpc_client_queues.hpp): unary calls on C channels, and a bidirectional stream per channel
// carrying id-multiplexed requests one per message, or batched up to `batch` per message.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <grpcpp/support/status.h>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench::grpc_backend {

// The server's own setting: --max-streams (GRPC_ARG_MAX_CONCURRENT_STREAMS), as http2's.
inline constexpr std::uint64_t default_max_streams = 100, max_streams = INT32_MAX;
std::vector<protocol_option> server_options();
void fit_server_to_load(server_config& config, std::size_t calls);

std::unique_ptr<protocol_server> make_server(const server_config& config);
std::unique_ptr<protocol_client> make_call_client(const client_config& config);
std::unique_ptr<protocol_client> make_stream_client(const client_config& config, std::size_t batch);

// Starts gRPC core for a process that runs gRPC clients, with the poller that keeps a client
// queue thread on its own connections (grpc_client_polling.cpp), unless the user set
// GRPC_POLL_STRATEGY or gRPC has started already. Call it before the process starts any thread:
// it sets the environment variable gRPC reads. Idempotent.
void start_grpc_for_clients();
// The poller gRPC core runs ("poll", "epoll1"), or "" before it has started.
std::string grpc_poller();

// Our endpoint syntax in gRPC's: 127.0.0.1:7000, [::1]:7000, unix:/path, unix-abstract:name.
std::string grpc_address(const endpoint& where);

// A duration as the int milliseconds gRPC's channel arguments take (capped at INT_MAX).
int grpc_milliseconds(std::chrono::steady_clock::duration d);

// A failed call's status as our error code: the deadline → timeout, cancellation → canceled,
// an unreachable or lost peer → connection_closed, anything the server said → remote_error.
std::error_code error_for(const grpc::Status& status);

}  // namespace wirebench::grpc_backend
