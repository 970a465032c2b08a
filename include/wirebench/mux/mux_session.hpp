#pragma once
// The server side of one connection of the multiplexed protocol; mux_server is it on the server
// skeleton. Each request is handed to the skeleton's worker pool (or computed on the event loop
// without one); its reply goes out when it is ready (completion order), gathered with the other
// replies ready in the same loop turn into one write. With `ordered`, replies are held back and
// sent in request order instead: the same server as an ordered-pipelining (FIFO) peer, to measure
// head-of-line blocking. A service-time model adds a delay to each request without holding a
// worker (a timer), as a backend call would. Cancel frames drop the reply of work already started.
// A graceful stop sends a drain frame on every connection, answers what is in flight, then closes.
#include <cstddef>
#include <span>
#include <system_error>

#include <asio/thread_pool.hpp>

#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/mux/mux_frame.hpp"
#include "wirebench/calls/request_dispatcher.hpp"
#include "wirebench/transport/server_skeleton.hpp"

namespace wirebench {

/// One connection's server side of the mux protocol (see above); mux_server is it on server_skeleton.
class mux_session : public stream_session {
 public:
  /// What every connection reads: made once per server, read-only after.
  struct settings {
    /// The request handler (on a worker thread, or on the event loop without workers), the
    /// service time and the reply order.
    dispatch_settings dispatch;
    /// The largest request payload taken and reply payload sent.
    std::size_t max_frame_bytes = 1 << 20;
    /// Requests in flight per connection; past this the server stops reading from that connection
    /// until replies have gone out (backpressure, not an unbounded queue).
    std::size_t max_in_flight = 4096;
  };
  /// The read buffer one connection needs: a full frame and its headers.
  static std::size_t max_read_bytes(const settings& s) {
    return s.max_frame_bytes + mux_header_bytes + 4;
  }

  /// On the connection's thread; `workers` is the skeleton's pool (null: none).
  mux_session(const settings& s, asio::thread_pool* workers);

  /// connection_handler's callbacks, on the connection's thread.
  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override;
  /// Nothing to do: work in flight keeps the connection alive until it ends.
  void on_close(connection&, std::error_code) override {}
  /// True while the decoder is discarding an oversize frame.
  bool mid_frame() const override { return decoder_.mid_frame(); }
  /// Requests in flight (their replies not computed yet): a graceful stop waits for them.
  std::size_t calls_in_flight() const override { return dispatcher_.in_flight(); }
  /// False at max_in_flight requests in flight: the connection stops reading.
  bool accepting_input() const override { return dispatcher_.in_flight() < max_in_flight_; }
  /// Sends a drain frame: the client sends no more requests.
  void on_drain(connection& c) override;

 private:
  std::size_t max_in_flight_;
  length_prefix_decoder decoder_;
  request_dispatcher dispatcher_;
};

/// Listening once constructed: mux_server server(skeleton_config, {.dispatch = {.handler = h}}).
using mux_server = server_skeleton<mux_session>;

}  // namespace wirebench
