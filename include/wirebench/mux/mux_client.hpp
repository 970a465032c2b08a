#pragma once
// A multiplexing client: many calls in flight on one connection (or a few), answered in any order
// and matched by request id. It speaks our mux protocol by default; another protocol with request
// ids (msgpack-rpc) plugs in its own client_wire and keeps everything else — or, with `ordered`, matched in request order
// (the same API over a FIFO matcher, to measure what ordered pipelining costs).
//
// async_call() may be called from any thread; calls from many threads share the connections
// (spread round robin). Per connection: at most max_in_flight calls await replies; more wait in a
// bounded queue (max_queued), past which they fail with errc::rejected. Every call completes
// exactly once, on the connection's thread: the reply; timeout (its deadline passed, whether it
// was sent or still queued); canceled; remote_error (the server's error reply; the reply text is
// its reason); connect_failed; or connection_closed when the connection dies with it pending.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "wirebench/core/call_completion.hpp"
#include "wirebench/mux/client_wire.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench {

struct mux_client_config {
  endpoint connect;
  std::size_t connections = 1;
  std::size_t threads = 1;
  std::vector<int> cpus;
  bool ordered = false;  // the server replies in request order (FIFO matching)
  std::size_t max_in_flight = 1024;  // per connection
  std::size_t max_queued = 4096;     // per connection; 0: a call over the cap fails at once
  std::size_t max_abandoned = 4096;  // timed-out/canceled ids kept for their late replies
  std::size_t max_frame_bytes = 1 << 20;
  std::chrono::steady_clock::duration connect_timeout = std::chrono::seconds(5);
  // The wire format, one per connection; empty: our mux frames (make_mux_client_wire).
  std::function<std::unique_ptr<client_wire>()> wire;
};

struct mux_client_stats {
  std::uint64_t late = 0;      // replies for calls that had already timed out or been canceled
  std::uint64_t unknown = 0;   // replies for ids never issued (dropped)
  std::uint64_t rejected = 0;  // calls refused: in-flight cap and queue full
};

class mux_client {
 public:
  using clock = std::chrono::steady_clock;

  // Cancels one call: before it is sent (it leaves the queue; nothing reaches the wire), or after
  // (it completes with errc::canceled at once, a cancel frame tells the server, and its reply, if
  // it still comes, is counted as late). No effect once the call has completed. Any thread.
  class call_handle {
   public:
    call_handle() = default;
    void cancel();

   private:
    friend class mux_client;
    struct state;
    std::shared_ptr<state> state_;
  };

  explicit mux_client(mux_client_config config);
  ~mux_client();
  mux_client(const mux_client&) = delete;
  mux_client& operator=(const mux_client&) = delete;

  void async_call(std::string payload, clock::time_point deadline, call_completion done);
  call_handle async_call_cancelable(std::string payload, clock::time_point deadline,
                                    call_completion done);
  // Closes every connection: pending and queued calls fail with connection_closed. Joins the
  // client's threads, so never from inside a completion. Idempotent.
  void close();
  mux_client_stats stats() const;

 private:
  struct slot;
  struct call;
  class reply_handler;
  void connect(slot& s);
  void issue(slot& s, call c);
  void send(slot& s, call c);
  void pump(slot& s);
  void arm_deadline(slot& s, clock::time_point when);
  void on_deadline(slot& s);
  void fail_queued(slot& s, std::error_code ec);
  void cancel(const std::shared_ptr<call_handle::state>& st);

  mux_client_config config_;
  io_pool pool_;
  std::vector<std::unique_ptr<slot>> slots_;
  std::atomic<std::size_t> next_{0};
  std::once_flag closed_;
};

}  // namespace wirebench
