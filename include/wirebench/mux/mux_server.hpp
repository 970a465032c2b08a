#pragma once
// The server of the multiplexed protocol. Each request is handed to a worker pool; its reply goes
// out when it is ready (completion order), gathered with the other replies ready in the same loop
// turn into one write. With `ordered`, replies are held back and sent in request order instead:
// the same server as an ordered-pipelining (FIFO) peer, to measure head-of-line blocking.
// A service-time model adds a delay to each request without holding a worker (a timer), as a
// backend call would. Cancel frames drop the reply of work already started. A graceful stop sends
// a drain frame on every connection, answers what is in flight, then closes.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>

#include "wirebench/mux/service_time.hpp"
#include "wirebench/transport/stream_server.hpp"

namespace wirebench {

struct mux_server_config {
  endpoint listen;
  std::size_t threads = 1;   // event-loop threads (connections spread over them)
  // Worker threads computing replies; 0 computes them on the event-loop thread (no hand-off:
  // the lowest latency for cheap requests).
  std::size_t workers = 1;
  std::vector<int> cpus;     // pin event-loop and worker threads (empty: no pinning)
  bool ordered = false;      // send replies in request order (FIFO) instead of completion order
  service_time_model service_time;
  std::size_t max_frame_bytes = 1 << 20;
  // Requests in flight per connection; past this the server stops reading from that connection
  // until replies have gone out (backpressure, not an unbounded queue).
  std::size_t max_in_flight = 4096;
  std::size_t max_connections = 10000;
  duration idle_timeout = std::chrono::minutes(5);
  duration read_timeout = std::chrono::seconds(30);
  duration write_timeout = std::chrono::seconds(30);
  duration drain_timeout = std::chrono::seconds(5);
};

class mux_server {
 public:
  // Runs on a worker thread: the reply to `request`, or set `error` (sent as an error reply with
  // error.message() as its text).
  using request_handler = std::function<std::string(std::string_view request, std::error_code& error)>;

  mux_server(mux_server_config config, request_handler handler);  // binds; throws on failure
  ~mux_server();

  endpoint local_endpoint() const;
  void stop();  // graceful drain; idempotent
  server_stats stats() const;

 private:
  class session;
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace wirebench
