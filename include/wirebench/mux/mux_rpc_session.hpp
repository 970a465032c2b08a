#pragma once
/// \file
/// An RPC server on the mux framing whose handler is a coroutine:
///
///   wirebench::mux_rpc_server server(config, {.handler = [](std::string request)
///                                               -> asio::awaitable<wirebench::rpc_reply> {
///     co_return "hello, " + request;
///   }});
///
/// Every request frame starts one coroutine (asio::co_spawn); many run at once per connection,
/// and each reply goes out when its coroutine ends (completion order), gathered with the other
/// replies of the same loop turn into one write. Clients: client_engine with
/// make_mux_client_codec(), or anything that speaks the mux frames (docs/PROTOCOLS.md).
///
/// Where handlers run: without workers (server_skeleton_config::workers == 0), on the
/// connection's event-loop thread: handlers of one connection never run at once, and must not
/// block (co_await instead). With workers, each call runs on its own strand of the skeleton's
/// pool: calls run in parallel; one call's code never runs on two threads at once. Either way
/// `co_await asio::this_coro::executor` is where the handler runs.
///
/// Errors: a handler that returns rpc_reply(error, text), or throws (std::exception: its what()),
/// is answered with an error reply; the client's call fails with errc::remote_error and the
/// text. A reply over max_frame_bytes is answered with the error reply "frame_too_long".
///
/// Cancellation: a cancel frame for a call, or the connection closing, emits terminal
/// cancellation on the call's coroutine (its cancellation slot, on the coroutine's executor):
/// the operation it awaits completes with asio::error::operation_aborted (thrown under
/// use_awaitable). A canceled call's reply, if the coroutine still returns one, is not sent.
///
/// Lifetimes: a running coroutine keeps its connection (and so this session) alive until it
/// ends. The handler (a std::function in the settings) lives as long as the server. stop() waits
/// up to the grace for running calls, then closes the connections, which cancels the
/// rest.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <system_error>
#include <unordered_map>

#include <asio/awaitable.hpp>
#include <asio/thread_pool.hpp>

#include "wirebench/calls/rpc_reply.hpp"
#include "wirebench/mux/mux_server_codec.hpp"
#include "wirebench/transport/server_skeleton.hpp"

namespace wirebench {

/// One call's handler: the request's payload in (the coroutine owns it), the reply out. Runs on
/// the executor described above; it may co_await anything on it (timers, other services'
/// clients, async_call on a client_engine).
using rpc_handler = std::function<asio::awaitable<rpc_reply>(std::string request)>;

/// One connection's server side of the coroutine RPC server (see above); mux_rpc_server is it on server_skeleton.
class mux_rpc_session : public stream_session {
 public:
  /// What every connection reads: made once per server, read-only after.
  struct settings {
    /// Required.
    rpc_handler handler;
    /// The largest request payload taken and reply payload sent.
    std::size_t max_frame_bytes = 1 << 20;
    /// Calls running per connection; past this the server stops reading from that connection
    /// until some end (backpressure, not an unbounded queue).
    std::size_t max_in_flight = 4096;
  };
  /// The read buffer one connection needs: a full frame and its headers.
  static std::size_t max_read_bytes(const settings& s) {
    return mux_server_codec(s.max_frame_bytes).max_read_bytes();
  }

  /// On the connection's thread; `workers` is the skeleton's pool (null: none).
  mux_rpc_session(const settings& s, asio::thread_pool* workers);

  /// connection_handler's callbacks, on the connection's thread.
  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override;
  /// Cancels every call still running (terminal cancellation, see above).
  void on_close(connection& c, std::error_code reason) override;
  /// True while part of a frame has been read.
  bool mid_frame() const override { return codec_.mid_request(); }
  /// Calls running: a graceful stop waits for them.
  std::size_t calls_in_flight() const override { return calls_.size(); }
  /// False at max_in_flight running calls: the connection stops reading.
  bool accepting_input() const override { return calls_.size() < settings_.max_in_flight; }
  /// Sends a drain frame: the client sends no more calls.
  void on_drain(connection& c) override;

 private:
  struct call;
  void start(connection& c, std::uint32_t id, std::string request);
  void cancel(std::uint32_t id);
  void finish(connection& c, std::uint32_t id, rpc_reply reply);

  const settings& settings_;
  asio::thread_pool* workers_;
  mux_server_codec codec_;  // the wire: frames in, replies, pongs and the drain frame out
  server_request request_;  // reused by every decode
  std::unordered_map<std::uint32_t, std::shared_ptr<call>> calls_;  // running, by request id
};

/// Listening once constructed: mux_rpc_server server(skeleton_config, {.handler = h}).
using mux_rpc_server = server_skeleton<mux_rpc_session>;

}  // namespace wirebench
