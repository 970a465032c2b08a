#include "wirebench/transport/connection.hpp"

#include <algorithm>

#include <asio/dispatch.hpp>
#include <asio/post.hpp>
#include <asio/write.hpp>

#include "wirebench/core/error.hpp"
#include "wirebench/core/loop_clock.hpp"

#include "readable_wait.hpp"

namespace wirebench {
namespace {
// Compact the read buffer once less than this much room is left at its end.
constexpr std::size_t min_read_room = 4096;
constexpr int max_reads_per_turn = 16;
}  // namespace

connection::connection(stream_socket socket, connection_config config,
                       std::unique_ptr<connection_handler> handler)
    : socket_(std::move(socket)),
      read_wait_(std::make_unique<readable_wait>(socket_)),
      config_(config),
      handler_(std::move(handler)),
      timer_(socket_.get_executor()),
      input_(config_.max_read_bytes, config_.initial_read_bytes) {
  // Non-blocking from the start, not from start(): a handler may queue output (a preface) before
  // start() has run on the connection's loop, and the flush that sends it must never block.
  asio::error_code ec;
  socket_.non_blocking(true, ec);
  if (ec) open_error_ = ec;  // start() closes with it
}

connection::~connection() = default;

void connection::start() {
  asio::dispatch(socket_.get_executor(), [self = shared_from_this()] {
    if (self->closed_ || self->started_) return;
    self->started_ = true;
    auto& ctx = asio::query(self->socket_.get_executor(), asio::execution::context);
    asio::use_service<connection_tracker>(ctx).add(self.get());
    self->last_activity_ = self->last_read_ = clock::now();
    const auto t = self->config_;
    if (t.idle_timeout.count() || t.read_timeout.count() || t.write_timeout.count() ||
        t.keepalive.enabled())
      self->on_timer();
    if (const std::error_code ec = self->open_error_) {
      self->close_now(ec);  // the socket could not be made non-blocking
      return;
    }
    self->read_loop();
  });
}

void connection::close(std::error_code reason) {
  asio::dispatch(socket_.get_executor(),
                 [self = shared_from_this(), reason] { self->close_now(reason); });
}

void connection::shutdown_gracefully() {
  asio::dispatch(socket_.get_executor(), [self = shared_from_this()] {
    if (self->closed_ || self->draining_) return;
    self->handler_->on_drain(*self);
    self->draining_ = true;
    self->read_before_closing();
  });
}

// A graceful stop's last read: what the peer sent before the stop is in the socket by now (on
// loopback, a send() has queued its bytes at our end when it returns), so those calls are taken
// in and answered; only calls sent after the stop are cut. A request caught halfway is read to
// its end (the read timeout and the grace bound the wait). Bounded in reads, so that a peer
// sending without pause cannot hold the stop; the grace bounds the answers.
void connection::read_before_closing(bool buffered_first) {
  constexpr int max_last_reads = 64;
  last_reading_ = in_read_loop_ = true;  // no close, no read_loop() from inside, meanwhile
  awaiting_rest_ = false;
  bool peer_ended = false;
  if (buffered_first) process_input();
  for (int reads = 0; reads < max_last_reads && !closed_ && !deferred_error_; ++reads) {
    if (!handler_->accepting_input()) {
      input_paused_ = true;  // work_finished() reads on once the handler takes more
      break;
    }
    const std::span<std::byte> room = room_to_read();
    if (room.empty()) break;
    std::error_code ec;
    read_into(room, ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) break;  // all it sent
    if (ec == asio::error::eof) {  // it has ended its side: answers still go out
      peer_ended = true;
      break;
    }
    if (ec) {
      close_now(ec);
      break;
    }
    process_input();
  }
  last_reading_ = in_read_loop_ = false;
  if (closed_) return;
  if (input_paused_) {  // work_finished() goes on once the handler takes more
    flush();
    return;
  }
  if (handler_->mid_frame() && !deferred_error_ && !peer_ended) {
    awaiting_rest_ = true;  // the wait comes back here
    wait_readable();
  } else {
    handler_->on_last_read(*this);
  }
  flush();
  work_finished();
}

void connection::work_finished() {
  if (closed_) return;
  if (draining_) {
    if (last_reading_) return;
    if (input_paused_ && !in_input_ && !deferred_error_ && handler_->accepting_input()) {
      input_paused_ = false;  // the last read stopped for room: what it held back, then the rest
      read_before_closing(true);
      if (closed_) return;
    }
    if (!writing_now_ && !output_waiting() && !handler_->busy() && !awaiting_rest_)
      close_now(drain_reason());
    return;
  }
  // Input paused by the handler resumes here, unless we are inside the input path already (it
  // goes on by itself).
  if (input_paused_ && !in_input_ && !in_read_loop_ && handler_->accepting_input()) {
    input_paused_ = false;
    process_input();  // what was held back in the buffer (or in the handler's own decoder)
    read_loop();
  }
}

void connection::close_now(std::error_code reason) {
  if (closed_) return;
  // A graceful stop has told the peer we are going: its leaving first (its end of stream, or a
  // reset or broken pipe on our last write) is that stop ending, not a failure of its own.
  if (draining_ && !deferred_error_ &&
      (reason == errc::peer_closed || error_name(reason) == "broken_pipe" ||
       error_name(reason) == "connection_reset"))
    reason = make_error_code(errc::shutting_down);
  closed_ = true;
  reason_ = reason;
  timer_.cancel();
  if (started_) {
    auto& ctx = asio::query(socket_.get_executor(), asio::execution::context);
    asio::use_service<connection_tracker>(ctx).remove(this);
  }
  asio::error_code ignored;
  socket_.shutdown(asio::socket_base::shutdown_both, ignored);
  socket_.close(ignored);
  handler_->on_close(*this, reason);
}

// Why a draining connection closes: the protocol error that started the drain, or a shutdown.
std::error_code connection::drain_reason() const {
  return deferred_error_ ? deferred_error_ : make_error_code(errc::shutting_down);
}

bool connection::reading_paused() const {
  return queued_output_bytes() > config_.pause_reading_above;
}

bool connection::expecting_bytes() const {
  return input_.size() != 0 || handler_->awaiting_peer() || handler_->mid_frame();
}

void connection::awaiting_from(clock::time_point now) {
  if (!expecting_bytes()) last_read_ = now;
}

// Room at the buffer's end for the next read; empty, with the connection closed, when one
// unfinished frame fills it at its limit.
std::span<std::byte> connection::room_to_read() {
  const std::span<std::byte> room = input_.prepare(min_read_room);
  if (room.empty()) close_now(errc::frame_too_long);
  return room;
}

// Reading: non-blocking reads until the socket is drained for now, then wait for readability.
// asio's async_read_some would instead try a speculative recv after every batch, which on
// request-response traffic nearly always returns EAGAIN: one wasted syscall per request. The wait
// is readable_wait, which makes no system call where asio's async_wait makes an epoll_ctl. It
// needs a read that drained the socket: EAGAIN, or a short read, unless the event that woke us
// flagged the peer's end (then the end may be waiting behind the bytes, and we read on until
// the read reports it; readable_wait.hpp). No readiness edge can be missed: this
// io_context has one thread, so the drain and the wait registration happen with no epoll_wait in
// between. Where no wait was pending (start, resume after backpressure) the first step is a read.
void connection::read_loop() {
  // Not before start(): a flush posted before it ran (start() posts where it cannot run at once)
  // must not start reading, or the tracker and the timers would miss this connection.
  if (!started_) return;
  in_read_loop_ = true;
  struct leave {
    bool& flag;
    ~leave() { flag = false; }
  } on_exit{in_read_loop_};
  // A peer that keeps the buffer full gets a bounded number of reads before others get a turn.
  for (int turns = 0; turns < max_reads_per_turn; ++turns) {
    if (closed_ || draining_ || waiting_read_ || reading_paused()) return;
    if (!handler_->accepting_input()) {
      input_paused_ = true;  // work_finished() resumes
      return;
    }
    const std::span<std::byte> room = room_to_read();
    if (room.empty()) return;
    std::error_code ec;
    const std::size_t n = read_into(room, ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
      wait_readable();
      return;
    }
    if (ec) {
      on_read_error(ec);
      return;
    }
    process_input();
    if (!closed_ && !handler_->accepting_input()) {
      input_paused_ = true;  // work_finished() resumes with what is buffered
      return;
    }
    if (n < room.size() && !end_flagged_) {
      wait_readable();
      return;
    }
  }
  asio::post(socket_.get_executor(), [self = shared_from_this()] { self->read_loop(); });
}

// One read into the buffer's free end (room_to_read()); what it brought is counted in and
// stamped with its time. Shared by the read loop and a graceful stop's last read.
std::size_t connection::read_into(std::span<std::byte> room, std::error_code& ec) {
  const std::size_t n = socket_.read_some(asio::buffer(room.data(), room.size()), ec);
  if (ec) return 0;
  last_read_ = last_activity_ = clock::now();
  ++read_count_;
  input_.commit(n);
  return n;
}

void connection::wait_readable() {
  if (closed_ || (draining_ && !awaiting_rest_) || waiting_read_) return;
  waiting_read_ = true;
  // Runs on this connection's thread; the wait holds a reference to us until then.
  read_wait_->start(shared_from_this(), [](void* owner, std::error_code ec, bool end_flagged) {
    auto* self = static_cast<connection*>(owner);
    self->waiting_read_ = false;
    if (end_flagged) self->end_flagged_ = true;
    if (self->closed_) return;
    if (ec) {
      self->close_now(ec);
      return;
    }
    if (self->draining_) {  // a request caught halfway by a graceful stop: its rest
      if (self->awaiting_rest_) self->read_before_closing();
      return;
    }
    self->read_loop();
  });
}

void connection::on_read_error(std::error_code ec) {
  if (ec == asio::error::eof)
    close_now(input_.size() != 0 || handler_->mid_frame() ? errc::truncated_frame
                                                          : errc::peer_closed);
  else
    close_now(ec);
}

void connection::process_input() {
  const loop_clock::turn turn(last_read_);  // what this read brought arrived at its time
  in_input_ = true;
  std::error_code error;
  const std::size_t consumed = handler_->on_data(*this, input_.data(), error);
  input_.consume(consumed);
  in_input_ = false;
  if (closed_) return;
  if (error) {
    // Replies to the frames before the bad one still go out; then we close with the reason.
    deferred_error_ = error;
    draining_ = true;
  }
  if (!prepare_output()) return;
  if (!pending_.empty())  // prepare_output() moved diverted output here
    flush();
  else
    work_finished();
}

// Gives the handler its chance to add lazily encoded output; false if that closed the connection.
bool connection::prepare_output() {
  std::error_code error;
  handler_->before_write(*this, error);
  if (error) close_now(error);
  return !closed_;
}

void connection::send(const encoded_frame& frame) {
  if (closed_) return;
  outbox_->append(frame);
  schedule_flush();
}

void connection::send(std::span<const std::byte> prefix, std::string&& payload,
                      std::span<const std::byte> suffix) {
  if (closed_) return;
  outbox_->append(prefix, std::move(payload), suffix);
  schedule_flush();
}

void connection::schedule_flush() {
  if (queued_output_bytes() > config_.max_output_bytes) {
    close_now(errc::slow_consumer);
    return;
  }
  // Inside on_data, or with a write in flight, the flush happens when that ends; otherwise on the
  // next loop turn, so that everything queued during this turn shares one writev.
  if (in_input_ || writing_now_ || flush_posted_) return;
  flush_posted_ = true;
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    self->flush_posted_ = false;
    self->flush();
  });
}

// Writing: the whole batch goes to a non-blocking writev at once. On request-response traffic the
// socket nearly always has room, and finishing inline spares the deferred completion that
// async_write would queue (one more trip through epoll per request). Only what the socket did
// not take is left to async_write.
void connection::flush() {
  if (closed_ || writing_now_ || !prepare_output() || pending_.empty()) return;
  pending_.swap(writing_);
  iov_.clear();
  writing_.for_each_segment(
      [this](std::span<const std::byte> s) { iov_.emplace_back(s.data(), s.size()); });
  ++write_count_;
  std::error_code ec;
  // One buffer (most replies) goes by send(): the kernel's sendmsg spends more on its message
  // header than the write itself costs here (docs/PERFORMANCE.md, the floor).
  std::size_t written = iov_.size() == 1 ? socket_.write_some(asio::buffer(iov_.front()), ec)
                                         : socket_.write_some(iov_, ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) {
    ec.clear();
    written = 0;
  }
  if (ec) {
    close_now(ec);
    return;
  }
  if (written == writing_.bytes()) {
    write_done();
    return;
  }
  // Drop what was written from the front of the buffer list; the rest goes out asynchronously.
  std::size_t skip = written, first = 0;
  while (skip >= iov_[first].size()) skip -= iov_[first++].size();
  iov_.erase(iov_.begin(), iov_.begin() + static_cast<std::ptrdiff_t>(first));
  iov_.front() += skip;
  writing_now_ = true;
  write_started_ = clock::now();
  asio::async_write(socket_, iov_, [self = shared_from_this()](std::error_code ec, std::size_t) {
    self->writing_now_ = false;
    if (self->closed_) return;
    if (ec) {
      self->close_now(ec);
      return;
    }
    self->write_done();
  });
}

void connection::write_done() {
  writing_.clear();
  last_activity_ = clock::now();
  if (output_waiting()) {
    flush();
    return;
  }
  if (draining_) {
    work_finished();
    return;
  }
  // Resume reading if backpressure had paused it (inside read_loop, the loop itself goes on).
  if (!in_read_loop_) read_loop();
}

void connection::arm_timer(clock::time_point when) {
  timer_.expires_at(when);
  timer_.async_wait([self = shared_from_this()](std::error_code ec) {
    if (!ec) self->on_timer();
  });
}

// One timer per connection, re-armed only when it fires: activity just moves the reference times,
// and the timer, when it fires early, computes the next deadline again.
void connection::on_timer() {
  if (closed_) return;
  const auto now = clock::now();
  const bool expecting = expecting_bytes();
  const bool idle_applies = !expecting && !writing_now_;
  auto earliest = clock::time_point::max();
  auto check = [&](duration limit, clock::time_point since, bool applies, errc why) {
    if (limit.count() == 0) return false;
    if (applies && now - since >= limit) {
      close_now(why);
      return true;
    }
    earliest = std::min(earliest, (applies ? since : now) + limit);
    return false;
  };
  if (check(config_.write_timeout, write_started_, writing_now_, errc::write_timeout)) return;
  if (check(config_.read_timeout, last_read_, expecting, errc::read_timeout)) return;
  if (check(config_.idle_timeout, last_activity_, idle_applies, errc::idle_timeout)) return;
  if (config_.keepalive.enabled() && !keepalive_off_ && keep_alive(now, earliest)) return;
  if (earliest != clock::time_point::max()) arm_timer(earliest);
}

// Keep-alive, from the timer: a ping once the peer has been silent for the interval, and a close
// when not a byte has come back within the timeout (any byte answers: a peer busy sending
// replies is alive, whether its ack is behind them or not). Returns true if it closed.
bool connection::keep_alive(clock::time_point now, clock::time_point& earliest) {
  if (ping_pending_ && read_count_ == reads_at_ping_) {
    // While we hold reading back (backpressure), the answer may be waiting unread: the clock
    // starts again once we read.
    if (input_paused_ || reading_paused()) ping_sent_ = now;
    if (now - ping_sent_ >= config_.keepalive.timeout) {
      close_now(errc::keepalive_timeout);
      return true;
    }
    earliest = std::min(earliest, ping_sent_ + config_.keepalive.timeout);
    return false;
  }
  ping_pending_ = false;
  const bool applies = config_.keepalive.without_calls || handler_->awaiting_peer();
  if (!applies || draining_) {
    earliest = std::min(earliest, now + config_.keepalive.interval);
    return false;
  }
  if (now - last_read_ < config_.keepalive.interval) {
    earliest = std::min(earliest, last_read_ + config_.keepalive.interval);
    return false;
  }
  if (!handler_->on_keepalive(*this)) {
    keepalive_off_ = true;
    return false;
  }
  ping_pending_ = true;
  ping_sent_ = now;
  reads_at_ping_ = read_count_;
  request_flush();
  earliest = std::min(earliest, now + config_.keepalive.timeout);
  return false;
}

}  // namespace wirebench
