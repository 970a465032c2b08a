#pragma once
// The server side of one connection of the multiplexed protocol; mux_server is it on the
// session server. It is the mux server codec (mux_server_codec.hpp) on the generic codec host
// (server/codec_session.hpp): each request is handed to the session server's worker pool (or computed on
// the event loop without one); its reply goes out when it is ready (completion order), gathered
// with the other replies ready in the same loop turn into one write. With dispatch `ordered`,
// replies are held back and sent in request order instead: the same server as an
// ordered-pipelining (FIFO) peer, to measure head-of-line blocking. A service-time model adds a
// delay to each request without holding a worker (a timer), as a backend call would. Cancel
// frames drop the reply of work already started. A graceful stop sends a drain frame on every
// connection, answers what is in flight, then closes. With a coroutine handler instead
// (settings::handler), each call is a coroutine: mux_rpc_session.hpp.
#include <cstddef>
#include <memory>

#include <asio/thread_pool.hpp>

#include "wirebench/calls/coroutine_runner.hpp"
#include "wirebench/mux/mux_server_codec.hpp"
#include "wirebench/server/codec_session.hpp"
#include "wirebench/server/session_server.hpp"

namespace wirebench {

/// One connection's server side of the mux protocol (see above); mux_server is it on session_server.
class mux_session : public codec_session {
 public:
  /// What every connection reads: made once per server, read-only after.
  struct settings {
    /// The request handler (on a worker thread, or on the event loop without workers), the
    /// service time and the reply order.
    dispatch_settings dispatch = {};
    /// Set: each call is this coroutine instead (mux_rpc_session.hpp); `dispatch` is unused.
    rpc_handler handler = {};
    /// The largest request payload taken and reply payload sent.
    std::size_t max_frame_bytes = 1 << 20;
    /// Requests in flight per connection; past this the server stops reading from that connection
    /// until replies have gone out (backpressure, not an unbounded queue).
    std::size_t max_in_flight = 4096;
  };
  /// The read buffer one connection needs: a full frame and its headers.
  static std::size_t max_read_bytes(const settings& s) {
    return mux_server_codec(s.max_frame_bytes).max_read_bytes();
  }

  /// On the connection's thread; `workers` is the session server's pool (null: none).
  mux_session(const settings& s, asio::thread_pool* workers)
      : codec_session(std::make_unique<mux_server_codec>(s.max_frame_bytes), s.dispatch,
                      s.max_in_flight, workers, coroutine_calls(s, workers)) {}

 private:
  static runner_factory coroutine_calls(const settings& s, asio::thread_pool* workers) {
    if (!s.handler) return {};
    return [&s, workers](call_runner::reply_writer write) {
      return std::make_unique<coroutine_runner>(s.handler, workers, std::move(write));
    };
  }
};

/// Listening once constructed: mux_server server(session_config, {.dispatch = {.handler = h}}).
using mux_server = session_server<mux_session>;

}  // namespace wirebench
