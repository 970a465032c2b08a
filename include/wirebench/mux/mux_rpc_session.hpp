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
/// Where handlers run: without workers (session_server_config::workers == 0), on the
/// connection's event-loop thread (the caller's, for a server on its io_context): handlers of one connection never run at once, and must not
/// block (co_await instead). With workers, each call runs on its own strand of the session server's
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
/// use_awaitable). A canceled call's reply, if the coroutine still returns one, is not sent. A
/// request whose id is still running is a protocol error: the connection closes.
///
/// Lifetimes: a running coroutine keeps its connection (and so this session) alive until it
/// ends. The handler (a std::function in the settings) lives as long as the server. stop() waits
/// up to the grace for running calls, then closes the connections, which cancels the
/// rest.
#include "wirebench/calls/coroutine_runner.hpp"
#include "wirebench/calls/rpc_reply.hpp"
#include "wirebench/mux/mux_session.hpp"

namespace wirebench {

/// The mux session with a coroutine handler (see above): settings{.handler = h}, with
/// max_frame_bytes and max_in_flight as mux_session's.
using mux_rpc_session = mux_session;

/// Listening once constructed: mux_rpc_server server(session_config, {.handler = h}), on threads
/// of its own; or mux_rpc_server server(io.get_executor(), session_config, {.handler = h}) on the
/// caller's io_context (session_server.hpp, connection_server.hpp).
using mux_rpc_server = mux_server;

}  // namespace wirebench
