#pragma once
// The call_runner whose handler is a coroutine (mux_rpc_session.hpp says what a handler may do):
// each call is one asio::co_spawn, on the connection's executor or on a strand of the worker
// pool; a cancel, or the connection closing, emits terminal cancellation on its coroutine; its
// reply goes back to the connection's thread. Connection thread only.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>

#include <asio/awaitable.hpp>
#include <asio/thread_pool.hpp>

#include "wirebench/core/api.hpp"
#include "wirebench/calls/call_runner.hpp"
#include "wirebench/calls/rpc_reply.hpp"

namespace wirebench {

/// One call's handler: the request's payload in (the coroutine owns it), the reply out. Runs on
/// the runner's executor for the call; it may co_await anything on it (timers, other services'
/// clients, async_call on a client_engine).
using rpc_handler = std::function<asio::awaitable<rpc_reply>(std::string request)>;

/// One connection's coroutine calls (see above).
class WIREBENCH_API coroutine_runner final : public call_runner {
 public:
  /// `handler` outlives the runner (the server's settings); `workers`: the session server's pool, or
  /// null (the connection's thread runs every call).
  coroutine_runner(const rpc_handler& handler, asio::thread_pool* workers, reply_writer write)
      : handler_(handler), workers_(workers), write_(std::move(write)) {}

  /// call_runner's. start() refuses a key still running (errc::protocol_error): its reply could
  /// not be told apart.
  std::error_code start(connection& c, std::uint64_t key, std::string_view request) override;
  void start_answered(connection& c, std::uint64_t key, std::string bytes) override;
  void cancel(std::uint64_t key) override;
  std::size_t in_flight() const override { return calls_.size(); }
  /// Cancels every call still running; they still end through finish(), which sends nothing.
  void connection_closed() override;

 private:
  struct call;
  void finish(connection& c, std::uint64_t key, rpc_reply reply);

  const rpc_handler& handler_;
  asio::thread_pool* workers_;
  reply_writer write_;
  std::unordered_map<std::uint64_t, std::shared_ptr<call>> calls_;  // running, by key
};

}  // namespace wirebench
