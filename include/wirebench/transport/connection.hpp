#pragma once
// One stream connection (TCP or Unix) on one io_context thread: a bounded read buffer fed to a
// sans-IO handler, one writer that gathers every reply queued in a loop turn into one writev,
// idle/read/write timeouts on a single lazily re-armed timer, and a close reason.
//
// Threading: everything runs on the connection's own io_context thread, except close() and
// shutdown_gracefully(), which may be called from anywhere. send() must be called on that thread
// (for example from inside on_data, or from a handler posted to executor()).
#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include <asio/generic/stream_protocol.hpp>
#include <asio/steady_timer.hpp>

#include "wirebench/core/api.hpp"
#include "wirebench/core/encoded_frame.hpp"
#include "wirebench/core/gather_queue.hpp"
#include "wirebench/transport/connection_tracker.hpp"
#include "wirebench/transport/keepalive.hpp"
#include "wirebench/transport/frame_buffer.hpp"

namespace wirebench {

class connection;
class readable_wait;
/// A stream socket of any family (TCP or Unix).
using stream_socket = asio::generic::stream_protocol::socket;
/// Timeouts and other intervals (steady clock).
using duration = std::chrono::steady_clock::duration;

/// Settings of one connection.
struct connection_config {
  /// Size of the read buffer at first (capped at max_read_bytes).
  std::size_t initial_read_bytes = 16 * 1024;
  /// The read buffer grows up to this and no further: the frame limit plus its framing bytes.
  std::size_t max_read_bytes = (1 << 20) + 64;
  duration idle_timeout{};   // no traffic either way for this long: close (0 = off)
  duration read_timeout{};   // a frame started, or a reply awaited, and no byte for this long
  duration write_timeout{};  // a write not taken by the peer for this long
  /// Pings (keepalive.hpp) through the handler's on_keepalive(); without `without_calls`, only
  /// while the peer owes us bytes (awaiting_peer()).
  keepalive_settings keepalive;
  /// Backpressure: above pause_reading_above buffered output bytes we stop reading until the peer
  /// drains; above max_output_bytes the peer is dropped as a slow consumer.
  /// Output bytes buffered above which reading pauses (see above).
  std::size_t pause_reading_above = 1 << 20;
  /// Output bytes buffered above which the peer is dropped (errc::slow_consumer).
  std::size_t max_output_bytes = 16 << 20;
};

/// What a protocol plugs into a connection. All calls are on the connection's thread.
class WIREBENCH_API connection_handler {
 public:
  /// The connection owns its handler and destroys it with itself.
  virtual ~connection_handler() = default;
  /// Called with every unconsumed byte (frames are views into the read buffer, valid only during
  /// the call). Returns how many bytes to drop from the front; set `error` to close the connection
  /// with that reason (after flushing what on_data queued).
  virtual std::size_t on_data(connection& c, std::span<const std::byte> data,
                              std::error_code& error) = 0;
  /// Exactly once, when the connection closes, with the first reason.
  virtual void on_close(connection& c, std::error_code reason) = 0;
  /// True while the peer owes us bytes (a client with calls pending): the read timeout applies.
  virtual bool awaiting_peer() const { return false; }
  /// True when the decoder holds part of a frame, so that EOF is a truncated frame, not a clean close.
  virtual bool mid_frame() const { return false; }
  /// Calls taken in (counted as requests) whose replies are not all queued yet: work on other
  /// threads, an HTTP/2 response still being sent. A graceful stop counts those it had to cut.
  virtual std::size_t calls_in_flight() const { return 0; }
  /// True while work started for this connection will still queue output: a graceful shutdown
  /// waits for it.
  virtual bool busy() const { return calls_in_flight() != 0; }
  /// When a graceful shutdown begins, before the last read: the protocol tells the peer it is
  /// going away (or marks its next reply so), and answers that last read's requests as usual.
  virtual void on_drain(connection&) {}
  /// After a graceful stop's last read was taken in: nothing more is read. A protocol that names
  /// the last request it took (HTTP/2's final GOAWAY) says so here; later ones were not processed.
  virtual void on_last_read(connection&) {}
  /// Just before queued output is written: a protocol that encodes lazily (nghttp2 gathers a loop
  /// turn's frames into one mem_send) appends to outbox() here. Set `error` to close.
  virtual void before_write(connection&, std::error_code& error) { (void)error; }
  /// Keep-alive is due (connection_config::keepalive_interval): queue the protocol's ping into
  /// outbox() (the connection then flushes) and return true; false if the protocol has none,
  /// which turns keep-alive off for this connection. On the connection's thread, from its timer.
  virtual bool on_keepalive(connection&) { return false; }
  /// False while the handler wants no more input (too much work in flight): the connection stops
  /// reading, without penalty, until work_finished() finds it true again; then on_data is called
  /// once with whatever is buffered (possibly nothing), so input held back is not stranded.
  virtual bool accepting_input() const { return true; }
};

/// One stream connection on one io_context thread (see above). Held by shared_ptr: start() needs one.
class WIREBENCH_API connection final : public std::enable_shared_from_this<connection>,
                                       private closable {
 public:
  /// Takes the socket and the handler; does nothing until start().
  connection(stream_socket socket, connection_config config,
             std::unique_ptr<connection_handler> handler);
  /// Destroys the handler with the connection.
  ~connection();

  /// Starts reading and the timers (on the connection's thread; callable from any thread).
  void start();
  /// Closes now, with `reason` (first reason wins). Any thread; idempotent.
  void close(std::error_code reason) override;
  /// Tells the handler (on_drain), reads and answers what the peer sent before now, stops
  /// reading, waits for the handler's in-flight work (busy()) and for what is queued to be
  /// flushed, then closes with errc::shutting_down. Any thread.
  void shutdown_gracefully();

  /// Queue output (connection thread only). It goes out at the end of the current read turn, or
  /// on the next loop turn, gathered with everything else queued by then.
  void send(const encoded_frame& frame);
  /// As send(frame), taking ownership of `payload` (not copied when large; see gather_queue).
  void send(std::span<const std::byte> prefix, std::string&& payload,
            std::span<const std::byte> suffix);
  /// Where a sans-IO encoder appends output directly (connection thread only); request_flush()
  /// then has it written like send() does. request_flush() also makes a write turn happen when
  /// only the handler's before_write() has something to add.
  gather_queue& outbox() { return *outbox_; }
  /// For a handler that transforms what its protocol writes (TLS under any session): from now on
  /// outbox() and send() append to `plain` (the caller's, kept alive as long as the connection),
  /// and the handler's before_write() must move it, transformed, into wire_outbox(). Connection
  /// thread only.
  void divert_output(gather_queue& plain) { outbox_ = &plain; }
  /// The bytes that go to the socket as they are: outbox() unless output is diverted.
  gather_queue& wire_outbox() { return pending_; }
  /// Has outbox() written, like send() does (connection thread only).
  void request_flush() {
    // Inline: a client encodes every call and asks for a flush; nearly always one is due anyway.
    if ((in_input_ || writing_now_ || flush_posted_) &&
        queued_output_bytes() <= config_.max_output_bytes)
      return;
    schedule_flush();
  }
  /// The handler's in-flight work finished (some of it): resume input it had paused, or, during a
  /// drain, close if nothing is left. Connection thread only.
  void work_finished();
  /// Tells the connection the peer owes us bytes from `now` on (call it before awaiting_peer()
  /// turns true): restarts the read-timeout clock.
  void awaiting_from(std::chrono::steady_clock::time_point now);
  /// When the last read completed: a loop turn's time, for callers that need no fresher one.
  std::chrono::steady_clock::time_point last_read() const { return last_read_; }

  /// The executor of the connection's thread: post work here to call send().
  asio::any_io_executor executor() { return socket_.get_executor(); }
  /// False once closed (connection thread).
  bool is_open() const { return !closed_; }
  /// Why it closed (the first reason); empty while open.
  std::error_code close_reason() const { return reason_; }
  /// The protocol's handler.
  connection_handler& handler() { return *handler_; }
  /// Output bytes queued or being written (diverted output counted as it is, before transforming).
  std::size_t queued_output_bytes() const {
    return pending_.bytes() + writing_.bytes() + (outbox_ != &pending_ ? outbox_->bytes() : 0);
  }
  /// How many reads completed and how many writes were started: writes never outnumber the loop
  /// turns that queued output, which is what gathering buys (tests check it).
  std::uint64_t read_count() const { return read_count_; }
  /// How many writes were started (see read_count()).
  std::uint64_t write_count() const { return write_count_; }

 private:
  using clock = std::chrono::steady_clock;
  void close_now(std::error_code reason);
  std::span<std::byte> room_to_read();
  std::size_t read_into(std::span<std::byte> room, std::error_code& ec);
  void read_loop();
  void wait_readable();
  void on_read_error(std::error_code ec);
  void read_before_closing(bool buffered_first = false);
  void process_input();
  void schedule_flush();
  void flush();
  bool prepare_output();
  void write_done();
  void arm_timer(clock::time_point when);
  void on_timer();
  bool keep_alive(clock::time_point now, clock::time_point& earliest);
  bool expecting_bytes() const;
  // Output queued and not yet being written, diverted or not.
  bool output_waiting() const { return !pending_.empty() || !outbox_->empty(); }
  bool reading_paused() const;
  std::error_code drain_reason() const;

  stream_socket socket_;
  std::unique_ptr<readable_wait> read_wait_;  // after socket_, which it waits on
  connection_config config_;
  std::unique_ptr<connection_handler> handler_;
  asio::steady_timer timer_;

  frame_buffer input_;  // the bytes read that the handler has not consumed yet

  gather_queue pending_;  // queued, not yet handed to the socket
  gather_queue writing_;  // the batch in the current writev
  gather_queue* outbox_ = &pending_;  // where the handler's output goes (divert_output)
  std::vector<asio::const_buffer> iov_;

  clock::time_point last_activity_;
  clock::time_point last_read_;
  clock::time_point write_started_;
  clock::time_point ping_sent_;    // with ping_pending_: when the keep-alive ping was queued
  std::uint64_t reads_at_ping_ = 0;  // read_count_ then: any later read answers it
  std::uint64_t read_count_ = 0;
  std::uint64_t write_count_ = 0;
  std::error_code reason_;
  std::error_code deferred_error_;  // a handler error waiting for its replies to flush
  std::error_code open_error_;      // the socket could not be made non-blocking: start() closes
  bool started_ = false;
  bool closed_ = false;
  bool waiting_read_ = false;
  bool end_flagged_ = false;  // epoll flagged the peer's end: read until a read reports it
  bool writing_now_ = false;
  bool flush_posted_ = false;
  bool in_input_ = false;
  bool in_read_loop_ = false;
  bool input_paused_ = false;  // the handler was not accepting input
  bool draining_ = false;  // graceful shutdown or a protocol error: no more reads
  bool last_reading_ = false;  // read_before_closing() under way: the drain does not close yet
  bool awaiting_rest_ = false;  // draining, a request caught halfway: read on until it is whole
  bool ping_pending_ = false;  // a keep-alive ping went out and nothing was read since
  bool keepalive_off_ = false;  // the handler has no ping (on_keepalive returned false)
};

}  // namespace wirebench
