#include "engine_lane.hpp"

#include <algorithm>

#include <asio/post.hpp>

#include "engine_core.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/named_error_category.hpp"
#include "wirebench/transport/listener.hpp"

namespace wirebench {

engine_lane::engine_lane(engine_core& core, asio::io_context& ctx, std::size_t thread)
    : core_(core),
      config_(core.config),
      ctx_(ctx),
      thread_(thread),
      redial_timer_(ctx),
      backoff_(core.config.redial_backoff, core.config.max_redial_backoff),
      deadline_timer_(ctx) {}

void engine_lane::start() { dial(); }

// Posted, never run here: the caller may be inside async_call, and a closed loop that calls again
// from the completion must not recurse.
void engine_lane::complete_later(call_completion done, std::error_code ec) {
  asio::post(ctx_, [d = std::move(done), ec] { d(ec, {}); });
}

void engine_lane::queue_or_fail(std::string_view request, clock::time_point deadline,
                                call_completion&& done, const void* token) {
  if (closed_) return complete_later(std::move(done), errc::connection_closed);
  // Fail-fast: no connection, and the back-off after a failed dial has not passed.
  if (!config_.wait_for_connection && link_ == nullptr && clock::now() < backoff_.next_dial())
    return complete_later(std::move(done), errc::connect_failed);
  // While dialing, the queue also holds the calls that go out the moment the connection opens.
  const std::size_t limit = config_.max_queued + (link_ == nullptr ? config_.max_in_flight : 0);
  if (queue_.size() >= limit) {
    counters::bump(counters_.rejected);
    return complete_later(std::move(done), errc::rejected);
  }
  queue_.push_back({std::string(request), deadline, std::move(done), token});
  set_phase(token, cancel_state::phase::queued);
  arm(deadline);
  dial_if_needed();
}

// Queued calls go out while the open connection has room.
void engine_lane::pump() {
  while (!queue_.empty() && link_ != nullptr && link_->can_take(config_.max_in_flight)) {
    queued_call c = std::move(queue_.front());
    queue_.pop_front();
    send_now(c.request, c.deadline, c.done, c.token);
  }
}

void engine_lane::resend(unanswered_call&& call) {
  counters::bump(counters_.resent);
  set_phase(call.token, cancel_state::phase::queued);
  queue_.push_front({std::move(call.request), call.deadline, std::move(call.done), call.token});
  arm(call.deadline);
  dial_if_needed();
}

void engine_lane::cancel(cancel_state& st) {
  if (st.ph == cancel_state::phase::queued) {
    // Before send: it leaves the queue and nothing reaches the wire.
    const auto it = std::find_if(queue_.begin(), queue_.end(),
                                 [&](const queued_call& c) { return c.token == &st; });
    if (it == queue_.end()) return;
    call_completion done = std::move(it->done);
    queue_.erase(it);
    done(errc::canceled, {});
  } else if (st.ph == cancel_state::phase::sent && st.link != nullptr) {
    // After send: complete now; the codec tells the server if it can.
    call_completion done;
    if (st.link->cancel(st.id, &st, done)) done(errc::canceled, {});
  }
}

// Dialing. A lane dials when it has calls to send and no connection that takes them; never
// before its back-off has passed since a failed dial (or a connection that closed unanswered).
void engine_lane::dial_if_needed() {
  if (closed_ || link_ != nullptr || dialing_ != dialing::idle || queue_.empty()) return;
  dial();
}

void engine_lane::dial() {
  if (closed_) return;
  const auto now = clock::now();
  if (now < backoff_.next_dial()) {
    dialing_ = dialing::backing_off;
    redial_timer_.expires_at(backoff_.next_dial());
    redial_timer_.async_wait([this](std::error_code ec) {
      if (ec || closed_) return;
      dialing_ = dialing::idle;
      dial_if_needed();
    });
    return;
  }
  dialing_ = dialing::dialing;
  // Runs on this lane's loop when the dial ends; `keep` keeps the lane (the engine may be gone).
  async_connect(ctx_, config_.connect, config_.connect_timeout,
                [this, keep = core_.shared_from_this()](std::error_code ec, stream_socket socket) {
                  on_dialed(ec, std::move(socket));
                });
}

void engine_lane::on_dialed(std::error_code ec, stream_socket socket) {
  dialing_ = dialing::idle;
  if (closed_) return;  // the socket closes as it goes
  if (ec) {
    counters::bump(counters_.connect_failures);
    core_.note_connect_error(ec);
    backoff_.failed(clock::now());
    // The calls waiting for this dial fail with its error; later ones wait for the next.
    fail_queue(connect_error(ec));
    return;
  }
  counters::bump(counters_.connects);
  if (ever_connected_) counters::bump(counters_.reconnects);
  ever_connected_ = true;
  connection_config cc;
  auto handler = std::make_unique<engine_link>(*this, core_.shared_from_this(), config_.codec(), config_);
  engine_link& link = *handler;
  cc.max_read_bytes = link.max_read_bytes();
  cc.initial_read_bytes = std::min(cc.initial_read_bytes, cc.max_read_bytes);
  cc.read_timeout = config_.silence_timeout;
  cc.keepalive = config_.keepalive;
  current_ = std::make_shared<connection>(std::move(socket), cc, std::move(handler));
  link_ = &link;
  // The preface is queued before reading starts: the link is whole before any byte arrives.
  const std::error_code open_ec = link.open(*current_);
  current_->start();
  if (open_ec) {
    current_->close(open_ec);
    return;
  }
  pump();
}

void engine_lane::link_answered() { backoff_.succeeded(); }

void engine_lane::link_going(engine_link& link) {
  if (&link != link_) return;
  retiring_.push_back(std::move(current_));
  link_ = nullptr;
  dial_if_needed();
}

// Lets go of a closed connection. Its last reference is dropped on a later loop turn: the close
// may have come from inside the connection's own code (a slow consumer caught in send()).
void engine_lane::forget(engine_link& link) {
  std::shared_ptr<connection> gone;
  if (&link == link_) {
    link_ = nullptr;
    gone = std::move(current_);
  } else {
    const auto it = std::find_if(retiring_.begin(), retiring_.end(), [&](const auto& c) {
      return &c->handler() == static_cast<connection_handler*>(&link);
    });
    if (it == retiring_.end()) return;
    gone = std::move(*it);
    retiring_.erase(it);
  }
  asio::post(ctx_, [gone = std::move(gone)] {});
}

void engine_lane::link_closed(engine_link& link, std::error_code reason,
                              std::vector<unanswered_call>& in_flight, std::string why_text) {
  // A connection that took calls and never answered (a server that accepts and closes) counts as
  // a failed dial for the back-off, so that such a server is not redialed in a tight loop.
  if (&link == link_ && !link.answered()) backoff_.failed(clock::now());
  forget(link);
  // Calls lost in flight: a silent server times them out, a server that broke the protocol (or
  // sent a reply past the limit, or failed TLS, or ended the stream they shared with a status:
  // gRPC's) fails them with that, anything else closed them.
  const std::error_code why = reason == errc::read_timeout ? make_error_code(errc::timeout)
                              : reason == errc::protocol_error || reason == errc::frame_too_long ||
                                      reason == errc::tls_failed ||
                                      reason == errc::keepalive_timeout || is_named_error(reason)
                                  ? reason
                                  : make_error_code(errc::connection_closed);
  if (!in_flight.empty()) {
    if (closed_) {
      fail_calls(in_flight, errc::connection_closed);
    } else {
      // Posted: the close may have come from inside a call's send (a slow consumer).
      asio::post(ctx_, [calls = std::move(in_flight), why, text = std::move(why_text)]() mutable {
        fail_calls(calls, why, text);
      });
    }
  }
  dial_if_needed();
}

// One timer per lane, armed at the earliest deadline of its calls, queued or sent. With one
// timeout for every call it is re-armed only when it fires.
void engine_lane::rearm(clock::time_point deadline) {
  if (closed_) return;
  armed_ = deadline;
  deadline_timer_.expires_at(deadline);
  deadline_timer_.async_wait([this](std::error_code ec) {
    if (!ec) on_deadline();
  });
}

void engine_lane::on_deadline() {
  armed_.reset();
  if (closed_) return;
  const auto now = clock::now();
  std::vector<call_completion> expired;
  std::optional<clock::time_point> next;
  auto earliest = [&](std::optional<clock::time_point> t) {
    if (t && (!next || *t < *next)) next = t;
  };
  auto sweep = [&](engine_link* link) {
    if (link == nullptr || link->closed()) return;
    link->expire(now, expired);
    earliest(link->next_deadline());
  };
  sweep(link_);
  for (auto& c : retiring_) sweep(static_cast<engine_link*>(&c->handler()));
  for (auto it = queue_.begin(); it != queue_.end();) {
    if (it->deadline <= now) {
      expired.push_back(std::move(it->done));
      it = queue_.erase(it);
    } else {
      earliest(it->deadline);
      ++it;
    }
  }
  // A connection going away whose last calls just timed out will bring nothing more: close it.
  std::vector<engine_link*> spent;
  for (auto& c : retiring_) {
    auto* link = static_cast<engine_link*>(&c->handler());
    if (!link->closed() && link->in_flight() == 0) spent.push_back(link);
  }
  for (engine_link* link : spent) link->close(errc::shutting_down);
  for (auto& done : expired) done(errc::timeout, {});
  if (next) arm(*next);
}

void engine_lane::fail_queue(std::error_code ec) {
  std::deque<queued_call> failed = std::move(queue_);
  queue_.clear();
  for (queued_call& c : failed) c.done(ec, {});
}

void engine_lane::close() {
  if (closed_) return;
  closed_ = true;
  redial_timer_.cancel();
  deadline_timer_.cancel();
  fail_queue(errc::connection_closed);
  if (link_ != nullptr) link_->close(errc::shutting_down);  // fails what is in flight
  auto retiring = retiring_;
  for (auto& c : retiring) c->close(errc::shutting_down);
}

}  // namespace wirebench
