#pragma once
// The host of every server_codec (codec/server_codec.hpp) on the session server: one connection's
// session that feeds the codec the bytes read, hands each call to the application through a
// request_dispatcher (inline, or on the session server's worker pool, with the configured service time;
// replies in request order for an ordered codec or ordered dispatch settings) or another
// call_runner (mux_rpc_session: a coroutine per call), writes what the
// codec encodes, counts requests, bounds the calls in flight and relays a graceful stop. A
// protocol's server is then its codec:
//
//   session_server<codec_session> server(config, {.codecs = [] { return make_my_codec(); },
//                                                  .dispatch = {.handler = h},
//                                                  .max_read_bytes = 1 << 20});
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <asio/steady_timer.hpp>

#include "wirebench/core/api.hpp"
#include "wirebench/calls/call_runner.hpp"
#include "wirebench/calls/request_dispatcher.hpp"
#include "wirebench/codec/server_codec.hpp"
#include "wirebench/server/server_session.hpp"

namespace wirebench {

/// One connection's server side: a server_codec and the application (see above).
class WIREBENCH_API codec_session : public server_session {
 public:
  /// What every connection reads: made once per server, read-only after.
  struct settings {
    /// Each connection's codec.
    server_codec_factory codecs;
    /// The application: the call, its service time, and whether replies keep request order.
    dispatch_settings dispatch;
    /// A codec's max_read_bytes(): every codec of a server asks alike.
    std::size_t max_read_bytes = 1 << 20;
    /// Calls in flight per connection; past this the server stops reading from that connection
    /// until replies have gone out (backpressure, not an unbounded queue).
    std::size_t max_in_flight = 4096;
  };
  static std::size_t max_read_bytes(const settings& s) { return s.max_read_bytes; }

  /// On the connection's thread. `workers`: the session server's pool, or null (replies computed inline).
  codec_session(const settings& s, asio::thread_pool* workers)
      : codec_session(s.codecs(), s.dispatch, s.max_in_flight, workers) {}
  /// Makes the runner of a session's calls, given the writer that encodes a reply with the codec.
  using runner_factory =
      std::function<std::unique_ptr<call_runner>(call_runner::reply_writer write)>;
  /// The same with the codec given: for a session type that names its protocol (mux_session).
  /// `dispatch` outlives the session (it is the server's settings). With `make_runner`, the
  /// calls are run by the runner it makes (mux's coroutine handlers), which keeps the codec's
  /// order, rather than by a request_dispatcher on `dispatch`.
  codec_session(std::unique_ptr<server_codec> codec, const dispatch_settings& dispatch,
                std::size_t max_in_flight, asio::thread_pool* workers,
                const runner_factory& make_runner = {});

  /// connection_handler's callbacks: on the connection's thread, as connection.hpp says.
  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override;
  void on_close(connection&, std::error_code) override {
    calls_->connection_closed();
    if (deadline_timer_) deadline_timer_->cancel();
  }
  bool mid_frame() const override { return codec_->mid_request(); }
  std::size_t calls_in_flight() const override {
    return calls_->in_flight() + codec_->replies_in_flight();
  }
  bool busy() const override { return calls_in_flight() != 0 || codec_->busy(); }
  /// False at max_in_flight calls in flight: the connection stops reading.
  /// (Inline, no call stays in flight: the runner is not asked.)
  bool accepting_input() const override {
    return inline_ || calls_->in_flight() < max_in_flight_;
  }
  void on_drain(connection& c) override;
  void on_last_read(connection& c) override;
  void before_write(connection& c, std::error_code& error) override;
  bool on_keepalive(connection& c) override { return codec_->ping(c.outbox()); }

  /// The codec, for tests that look at it through the session.
  server_codec& codec() { return *codec_; }

 private:
  codec_session(std::unique_ptr<server_codec> codec, const dispatch_settings& dispatch,
                std::size_t max_in_flight, bool answer_inline);
  call_runner::reply_writer reply_writer();
  void answer_inline(connection& c);
  // Calls off the connection's thread with deadlines (codec::next_deadline): one timer, armed
  // at the earliest; when it fires the codec answers those past theirs.
  void watch_deadlines(connection& c);

  const dispatch_settings& dispatch_;
  // No pool and no service time: each call is answered as it is decoded, without the
  // dispatcher's bookkeeping (the common case, and the one a per-request cost shows in).
  const bool inline_;
  const bool ordered_;
  const std::size_t max_in_flight_;
  std::unique_ptr<server_codec> codec_;
  std::unique_ptr<call_runner> calls_;  // a request_dispatcher unless a session type chose
  server_request request_;  // reused by every decode: its answer's buffer stays warm inline
  std::string reply_;       // reused by every inline call
  std::optional<asio::steady_timer> deadline_timer_;  // made on the first deadline
  std::chrono::steady_clock::time_point armed_ = std::chrono::steady_clock::time_point::max();
  // Expires with the session: a completion already queued when it goes finds it gone.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace wirebench
