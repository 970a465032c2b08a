#include "wirebench/mux/mux_client.hpp"

#include <deque>
#include <future>

#include <asio/dispatch.hpp>
#include <asio/post.hpp>
#include <asio/steady_timer.hpp>

#include "wirebench/core/error.hpp"
#include "wirebench/mux/fifo_matcher.hpp"
#include "wirebench/mux/client_wire.hpp"
#include "wirebench/mux/pending_table.hpp"
#include "wirebench/transport/connection.hpp"
#include "wirebench/transport/listener.hpp"

namespace wirebench {

// Where a cancelable call is, as seen from its connection's thread (the only thread touching it).
struct mux_client::call_handle::state {
  enum class phase : std::uint8_t { queued, sent, done };
  mux_client* client = nullptr;
  slot* home = nullptr;
  phase ph = phase::queued;
  std::uint32_t id = 0;
};

struct mux_client::call {
  std::string payload;
  clock::time_point deadline;
  call_completion done;
  std::shared_ptr<call_handle::state> token;  // null for calls that cannot be canceled
};

struct mux_client::slot {
  enum class phase : std::uint8_t { connecting, open, closed };
  asio::io_context* ctx = nullptr;
  phase ph = phase::connecting;
  bool draining = false;  // the server announced a drain: send nothing more here
  std::error_code closed_reason = errc::connection_closed;
  std::shared_ptr<connection> conn;
  std::unique_ptr<call_matcher> matcher;
  std::unique_ptr<client_wire> wire;
  std::deque<call> queue;  // over the in-flight cap, or waiting for the connect
  std::unique_ptr<asio::steady_timer> timer;
  std::optional<clock::time_point> armed;
  std::atomic<std::uint64_t> late{0}, unknown{0}, rejected{0};
};

// The connection's handler: the wire decodes, this matches replies to calls.
class mux_client::reply_handler final : public connection_handler, private reply_sink {
 public:
  reply_handler(mux_client& client, slot& s) : client_(client), slot_(s) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    const std::size_t consumed = slot_.wire->decode(c, data, *this, error);
    client_.pump(slot_);  // replies freed in-flight room
    return consumed;
  }

  void on_close(connection&, std::error_code) override {
    slot_.ph = slot::phase::closed;
    slot_.timer->cancel();
    slot_.matcher->fail_all(errc::connection_closed);
    client_.fail_queued(slot_, errc::connection_closed);
  }
  bool awaiting_peer() const override { return false; }  // deadlines are per call, not per read
  bool mid_frame() const override { return slot_.wire->mid_frame(); }

 private:
  bool reply(std::uint32_t id, std::error_code ec, std::string_view body) override {
    switch (slot_.matcher->complete(id, ec, body)) {
      case reply_match::completed: return true;
      case reply_match::late: slot_.late.fetch_add(1, std::memory_order_relaxed); return true;
      case reply_match::unknown: break;
    }
    slot_.unknown.fetch_add(1, std::memory_order_relaxed);
    // Ordered replies out of order: the stream cannot be matched any more.
    return !client_.config_.ordered;
  }
  void drain() override {
    slot_.draining = true;
    client_.fail_queued(slot_, errc::connection_closed);
  }

  mux_client& client_;
  slot& slot_;
};

mux_client::mux_client(mux_client_config config)
    : config_(std::move(config)), pool_(io_pool_options{config_.threads, config_.cpus, "mux-cli"}) {
  if (config_.connections == 0) throw std::invalid_argument("mux_client: connections is 0");
  for (std::size_t i = 0; i < config_.connections; ++i) {
    auto s = std::make_unique<slot>();
    s->ctx = &pool_.context(i % pool_.size());
    s->timer = std::make_unique<asio::steady_timer>(*s->ctx);
    s->wire = config_.wire ? config_.wire() : make_mux_client_wire(config_.max_frame_bytes);
    if (config_.ordered)
      s->matcher = std::make_unique<fifo_matcher>(config_.max_in_flight);
    else
      s->matcher = std::make_unique<pending_table>(
          pending_table_config{config_.max_in_flight, config_.max_abandoned});
    slots_.push_back(std::move(s));
  }
  for (auto& s : slots_) connect(*s);
}

mux_client::~mux_client() { close(); }

void mux_client::connect(slot& s) {
  async_connect(*s.ctx, config_.connect, config_.connect_timeout,
                [this, &s](std::error_code ec, stream_socket socket) {
                  if (s.ph == slot::phase::closed) return;
                  if (ec) {
                    s.ph = slot::phase::closed;
                    s.closed_reason = connect_error(ec);
                    fail_queued(s, s.closed_reason);
                    return;
                  }
                  connection_config cc;
                  cc.max_read_bytes = s.wire->max_frame_bytes();
                  s.conn = std::make_shared<connection>(std::move(socket), cc,
                                                        std::make_unique<reply_handler>(*this, s));
                  s.ph = slot::phase::open;
                  s.conn->start();
                  pump(s);
                });
}

void mux_client::async_call(std::string payload, clock::time_point deadline, call_completion done) {
  slot& s = *slots_[next_.fetch_add(1, std::memory_order_relaxed) % slots_.size()];
  asio::dispatch(*s.ctx, [this, &s, c = call{std::move(payload), deadline, std::move(done), nullptr}]() mutable {
    issue(s, std::move(c));
  });
}

mux_client::call_handle mux_client::async_call_cancelable(std::string payload,
                                                          clock::time_point deadline,
                                                          call_completion done) {
  slot& s = *slots_[next_.fetch_add(1, std::memory_order_relaxed) % slots_.size()];
  call_handle handle;
  handle.state_ = std::make_shared<call_handle::state>();
  handle.state_->client = this;
  handle.state_->home = &s;
  // The wrapper records completion, so that a later cancel() knows there is nothing to do.
  call_completion wrapped = [st = handle.state_, d = std::move(done)](std::error_code ec,
                                                                       std::string_view reply) {
    st->ph = call_handle::state::phase::done;
    d(ec, reply);
  };
  asio::dispatch(*s.ctx, [this, &s, c = call{std::move(payload), deadline, std::move(wrapped),
                                              handle.state_}]() mutable { issue(s, std::move(c)); });
  return handle;
}

void mux_client::call_handle::cancel() {
  if (state_) state_->client->cancel(state_);
}

void mux_client::cancel(const std::shared_ptr<call_handle::state>& st) {
  asio::dispatch(*st->home->ctx, [this, st] {
    slot& s = *st->home;
    if (st->ph == call_handle::state::phase::queued) {
      // Before send: it leaves the queue and nothing reaches the wire.
      for (auto it = s.queue.begin(); it != s.queue.end(); ++it) {
        if (it->token != st) continue;
        call_completion done = std::move(it->done);
        s.queue.erase(it);
        done(errc::canceled, {});
        return;
      }
    } else if (st->ph == call_handle::state::phase::sent) {
      // After send: complete now; tell the server, which may drop the work.
      const std::uint32_t id = st->id;
      if (s.matcher->cancel(id, st.get()) && s.ph == slot::phase::open)
        s.wire->write_cancel(*s.conn, id);
    }
  });
}

// On the slot's thread from here on.
void mux_client::issue(slot& s, call c) {
  if (s.ph == slot::phase::closed || s.draining) {
    // Posted, not called: a closed-loop caller that retries at once must not recurse.
    asio::post(*s.ctx, [d = std::move(c.done), ec = s.closed_reason] { d(ec, {}); });
    return;
  }
  if (c.payload.size() > config_.max_frame_bytes) {
    asio::post(*s.ctx, [d = std::move(c.done)] { d(errc::frame_too_long, {}); });
    return;
  }
  if (s.ph == slot::phase::open && s.queue.empty() && s.matcher->in_flight() < config_.max_in_flight) {
    send(s, std::move(c));
    return;
  }
  // While connecting, the queue also holds the calls that will go out the moment it opens.
  const std::size_t queue_limit = config_.max_queued +
                                  (s.ph == slot::phase::connecting ? config_.max_in_flight : 0);
  if (s.queue.size() >= queue_limit) {
    s.rejected.fetch_add(1, std::memory_order_relaxed);
    asio::post(*s.ctx, [d = std::move(c.done)] { d(errc::rejected, {}); });
    return;
  }
  const auto deadline = c.deadline;
  s.queue.push_back(std::move(c));
  arm_deadline(s, deadline);
}

void mux_client::send(slot& s, call c) {
  const auto id = s.matcher->add(std::move(c.done), c.deadline, c.token.get());
  if (c.token) {
    c.token->ph = call_handle::state::phase::sent;
    c.token->id = *id;
  }
  s.wire->write_request(*s.conn, *id, std::move(c.payload));
  arm_deadline(s, c.deadline);
}

void mux_client::pump(slot& s) {
  while (s.ph == slot::phase::open && !s.draining && !s.queue.empty() &&
         s.matcher->in_flight() < config_.max_in_flight) {
    call c = std::move(s.queue.front());
    s.queue.pop_front();
    send(s, std::move(c));
  }
}

void mux_client::fail_queued(slot& s, std::error_code ec) {
  std::deque<call> failed = std::move(s.queue);
  s.queue.clear();
  for (call& c : failed) c.done(ec, {});
}

// One timer per connection, armed at the earliest deadline of the calls there (sent or queued).
void mux_client::arm_deadline(slot& s, clock::time_point when) {
  if (s.armed && *s.armed <= when) return;
  s.armed = when;
  s.timer->expires_at(when);
  s.timer->async_wait([this, &s](std::error_code ec) {
    if (!ec) on_deadline(s);
  });
}

void mux_client::on_deadline(slot& s) {
  s.armed.reset();
  const auto now = clock::now();
  s.matcher->expire(now);
  std::vector<call_completion> expired;
  std::optional<clock::time_point> next = s.matcher->next_deadline();
  for (auto it = s.queue.begin(); it != s.queue.end();) {
    if (it->deadline <= now) {
      expired.push_back(std::move(it->done));
      it = s.queue.erase(it);
    } else {
      if (!next || it->deadline < *next) next = it->deadline;
      ++it;
    }
  }
  for (auto& done : expired) done(errc::timeout, {});
  if (next && s.ph != slot::phase::closed) arm_deadline(s, *next);
}

void mux_client::close() {
  std::call_once(closed_, [this] {
    if (!pool_.running_in_pool()) {
      std::vector<std::future<void>> done;
      for (auto& sp : slots_) {
        slot& s = *sp;
        auto finished = std::make_shared<std::promise<void>>();
        done.push_back(finished->get_future());
        asio::dispatch(*s.ctx, [this, &s, finished] {
          const bool was_open = s.ph == slot::phase::open;
          s.ph = slot::phase::closed;
          if (was_open) s.conn->close(errc::shutting_down);  // fails what is pending
          fail_queued(s, errc::connection_closed);
          s.timer->cancel();
          finished->set_value();
        });
      }
      for (auto& f : done) f.wait();
    }
    pool_.stop();
  });
}

mux_client_stats mux_client::stats() const {
  mux_client_stats out;
  for (const auto& s : slots_) {
    out.late += s->late.load(std::memory_order_relaxed);
    out.unknown += s->unknown.load(std::memory_order_relaxed);
    out.rejected += s->rejected.load(std::memory_order_relaxed);
  }
  return out;
}

}  // namespace wirebench
