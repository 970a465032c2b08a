#pragma once
// The client engine: everything a request-response client does that is not its protocol, once.
// A protocol plugs in a sans-IO client_codec (client_codec.hpp); the engine owns the rest:
//
//   threads    `threads` event loops (io_pool); connection i lives on thread i % threads
//   lanes      `connections` places calls go to, each with one open connection at a time, a
//              queue for calls that cannot go out yet, and the dialing: a connection that closes
//              or announces it is going (GOAWAY, drain, Connection: close) is replaced by a new
//              one (with the protocol's preface); failed dials back off (exponential, capped)
//   calls      per connection a pending table (replies by id) or a FIFO (replies in order), with
//              the call's request kept so that a call the server did not process is sent again;
//              deadlines on one timer per lane; at most max_in_flight calls per connection
//   writes     one writer per connection, every call encoded in a loop turn in one writev
//
// Every call completes exactly once: with its reply; timeout (its deadline passed, sent or
// queued); canceled; remote_error (the server's error reply, its text the reason); connect_failed
// (the dial it waited for failed); rejected (its lane's queue was full); connection_closed (its
// connection died with it in flight); protocol_error, frame_too_long or tls_failed (its
// connection was closed for that, with it in flight); or the codec's error for a call it cannot
// encode.
//
// Threads and completions: a completion runs on the thread of the lane that took the call, never
// inside async_call() and never while a codec is decoding: replies are decoded first, matched,
// and only then completed, so a completion may make the next call at once (which then goes out
// in the same write as its siblings). Calls made on a lane's own thread (from a completion) go
// straight to the connection; calls from other threads are posted to it.
//
// Where it runs: threads of its own (config.threads event loops), or the caller's io_context
// (the constructor that takes its executor), as an Asio I/O object does: every lane on that one
// loop, which the caller runs, on one thread at a time, as the engine's own loops are. There the
// engine neither stops the loop nor waits for it: close() returns at once and the loop finishes
// the closing (the calls' completions, the connections' ends); keep running it until then
// (io.run() returns once nothing is left). The engine may be destroyed before that: what its
// handlers need lives until the last of them has run.
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "wirebench/core/api.hpp"
#include "wirebench/codec/client_codec.hpp"
#include "wirebench/core/call_completion.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/io_pool.hpp"
#include "wirebench/transport/keepalive.hpp"

namespace wirebench {

class engine_lane;
struct engine_core;

/// Settings of a client_engine.
struct client_engine_config {
  /// Where every connection goes.
  endpoint connect;
  /// Number of lanes, each with one connection open at a time.
  std::size_t connections = 1;  // lanes
  /// Event-loop threads; connection i lives on thread i % threads.
  std::size_t threads = 1;
  /// CPUs to pin the threads to.
  std::vector<int> cpus;         // pin the threads (empty: no pinning)
  /// Name prefix of the engine's threads (visible in top/perf).
  std::string thread_name = "cli";
  /// Calls awaiting replies per connection (the pipelining depth or stream count); more wait in
  /// the lane's queue, up to max_queued (plus max_in_flight while a connection is being dialed),
  /// past which a call fails with errc::rejected.
  std::size_t max_in_flight = 1024;
  /// Calls a lane queues beyond those in flight (see max_in_flight).
  std::size_t max_queued = 4096;
  /// Replies matched by id: timed-out or canceled ids kept reserved for their late replies.
  std::size_t max_abandoned = 4096;
  /// A dial not finished after this long fails (errc::connect_failed).
  std::chrono::steady_clock::duration connect_timeout = std::chrono::seconds(5);
  /// A connection with calls in flight that receives nothing for this long is closed (its calls
  /// fail with errc::timeout) and replaced. 0: off (calls still have their own deadlines).
  std::chrono::steady_clock::duration silence_timeout{};
  /// Keep-alive pings on every connection (keepalive.hpp): a connection whose server answers no
  /// ping in time is closed (its calls fail with errc::keepalive_timeout) and replaced. Off by
  /// default. The codec must have a ping (client_codec::ping).
  keepalive_settings keepalive;
  /// Waits between failed dials: the first, doubled after each failure, at most the second.
  std::chrono::steady_clock::duration redial_backoff = std::chrono::milliseconds(10);
  /// The longest wait between failed dials (see redial_backoff).
  std::chrono::steady_clock::duration max_redial_backoff = std::chrono::seconds(1);
  /// A call made while its lane backs off after a failed dial: true waits for the next dial (and
  /// fails with its error); false fails at once with errc::connect_failed (fail-fast). A call made
  /// once the back-off has passed starts the next dial and waits for it either way.
  bool wait_for_connection = true;
  /// Makes each new connection's codec. Required.
  client_codec_factory codec;
};

/// Counters of a client_engine, summed over its lanes (client_engine::stats()).
struct client_engine_stats {
  std::uint64_t late = 0;              // replies for calls that had already timed out or been canceled
  std::uint64_t unknown = 0;           // replies for ids never issued (dropped)
  std::uint64_t rejected = 0;          // calls refused: in-flight cap and queue full
  std::uint64_t connects = 0;          // connections made
  std::uint64_t connect_failures = 0;  // dials that failed
  std::uint64_t reconnects = 0;        // connections made to replace one that closed or went away
  std::uint64_t resent = 0;            // calls sent again because the server did not process them
  std::error_code last_connect_error;  // why the last failed dial failed (the system's error)
};

/// The client engine (see above). Its methods may be called from any thread unless said otherwise.
class WIREBENCH_API client_engine {
 public:
  /// The clock deadlines are on.
  using clock = std::chrono::steady_clock;

  /// Cancels one call: before it is sent (it leaves the queue; nothing reaches the wire), or after
  /// (it completes with errc::canceled at once, the codec tells the server if it can, and its
  /// reply, if it still comes, is counted as late). No effect once the call has completed. Any
  /// thread; never after the engine is destroyed.
  class call_handle {
   public:
    /// A handle to no call: cancel() does nothing.
    call_handle() = default;
    /// Cancels the call (see call_handle). Any thread.
    void cancel();

   private:
    friend class client_engine;
    friend class engine_lane;
    struct state;
    std::shared_ptr<state> state_;
  };

  /// The executor the engine's loops run on (the first loop's, when it has threads of its own).
  using executor_type = asio::io_context::executor_type;

  /// Starts the threads and dials every connection. Throws std::invalid_argument on a bad config.
  explicit client_engine(client_engine_config config);
  /// Runs on `executor`'s io_context, which the caller runs (see above): no thread of its own;
  /// config.threads and config.cpus are not used. Dials every connection once the loop runs.
  client_engine(const executor_type& executor, client_engine_config config);
  /// Closes the engine (close()) and joins its threads: never on one of them (a completion).
  ~client_engine();
  /// Not copyable.
  client_engine(const client_engine&) = delete;
  /// Not copyable.
  client_engine& operator=(const client_engine&) = delete;

  /// What async_call's `lane` is without one.
  static constexpr std::size_t any_lane = static_cast<std::size_t>(-1);
  /// A call on lane `lane % connections`, or (any_lane) on a lane of the calling thread when that
  /// is one of the engine's, else round robin. Any thread. After close(), the call completes at
  /// once, on the caller's thread, with connection_closed (no engine thread is left to run it).
  void async_call(std::string_view request, clock::time_point deadline, call_completion&& done,
                  std::size_t lane = any_lane);
  /// The same with a timeout: the deadline is taken from the loop's turn (loop_clock) when the
  /// call is made inside one (from a completion), which spares a clock read per call.
  void async_call(std::string_view request, clock::duration timeout, call_completion&& done,
                  std::size_t lane = any_lane);
  /// As async_call() with a deadline, returning a handle that can cancel the call.
  call_handle async_call_cancelable(std::string_view request, clock::time_point deadline,
                                    call_completion done);

  /// Closes every connection: calls in flight and queued fail with connection_closed, and their
  /// completions run, before the engine's threads end. From any other thread it returns once they
  /// have ended (joined); from one of the engine's own (a completion) it returns at once, the
  /// closing goes on behind it, and the destructor, which must run elsewhere, joins. Idempotent;
  /// the destructor calls it.
  void close();
  /// Counters summed over every lane. Any thread.
  client_engine_stats stats() const;
  /// Number of lanes (config.connections).
  std::size_t lanes() const;
  /// The executor of the engine's (first) loop: where a plain callback of async_call() runs.
  executor_type get_executor() { return pool_.context(0).get_executor(); }
  /// The event loops that own lanes (thread t owns lanes t, t + threads, ...): a call made on one
  /// of them goes to one of its lanes without crossing threads. Valid until close().
  std::vector<asio::io_context*> loops();

 private:
  friend class engine_lane;
  struct call;
  engine_lane& lane_for_this_thread();
  // Inline, defined in client_engine.cpp (the only place they are called): the per-call path.
  inline engine_lane& lane_at(std::size_t index);
  inline bool on_thread_of(const engine_lane& lane) const;
  inline engine_lane& lane_for(std::size_t lane);
  inline void submit(engine_lane& lane, std::string_view request, clock::time_point deadline,
                     call_completion&& done);
  void route(engine_lane& lane, call c);

  void start();

  io_pool pool_;  // the loops: threads of its own, or the caller's io_context
  // The lanes and what they share (src/client/engine_core.hpp). After pool_: released first.
  std::shared_ptr<engine_core> core_;
  std::atomic<std::size_t> next_lane_{0};
  std::once_flag close_once_;
};

}  // namespace wirebench
