#include "wirebench/transport/connection_server.hpp"

#include <atomic>
#include <condition_variable>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include <asio/post.hpp>
#include <asio/steady_timer.hpp>

#include "wirebench/core/error.hpp"

namespace wirebench {

// What the server's connections share with it: the books, the live set, the handler factory.
// Held by the server and by every connection's handler (and the accept loop), so that on a
// caller's io_context, where the server does not wait for its connections to end, none of them
// reaches freed memory.
struct connection_server::state : std::enable_shared_from_this<connection_server::state> {
  state(connection_server_config c, handler_factory f)
      : config(std::move(c)), make_handler(std::move(f)) {}

  const connection_server_config config;
  const handler_factory make_handler;
  std::atomic<std::uint64_t> accepted{0};
  std::atomic<std::uint64_t> rejected{0};
  mutable std::mutex mutex;
  std::condition_variable all_closed;
  std::unordered_map<connection*, std::weak_ptr<connection>> live;  // under mutex
  std::map<std::string, std::uint64_t> close_reasons;                // under mutex
  bool grace_ended = false;                                          // under mutex
  // On a caller's loop: the grace of a stop under way (on that loop only).
  std::optional<asio::steady_timer> grace_timer;

  void on_accept(stream_socket socket);
  void on_closed(connection* c, std::error_code reason);
  std::vector<std::shared_ptr<connection>> open_connections() const;
  void close_the_rest();
};

// Wraps the protocol's handler to keep the server's books when the connection closes.
class connection_server::counted_handler final : public connection_handler {
 public:
  counted_handler(std::shared_ptr<state> server, std::unique_ptr<connection_handler> inner)
      : server_(std::move(server)), inner_(std::move(inner)) {}
  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    return inner_->on_data(c, data, error);
  }
  void on_close(connection& c, std::error_code reason) override {
    server_->on_closed(&c, reason);  // booked first: whoever the protocol tells sees the count
    inner_->on_close(c, reason);
  }
  bool awaiting_peer() const override { return inner_->awaiting_peer(); }
  bool mid_frame() const override { return inner_->mid_frame(); }
  std::size_t calls_in_flight() const override { return inner_->calls_in_flight(); }
  bool busy() const override { return inner_->busy(); }
  void on_drain(connection& c) override { inner_->on_drain(c); }
  void on_last_read(connection& c) override { inner_->on_last_read(c); }
  void before_write(connection& c, std::error_code& error) override {
    inner_->before_write(c, error);
  }
  bool accepting_input() const override { return inner_->accepting_input(); }
  bool on_keepalive(connection& c) override { return inner_->on_keepalive(c); }

 private:
  std::shared_ptr<state> server_;
  std::unique_ptr<connection_handler> inner_;
};

connection_server::connection_server(connection_server_config config, handler_factory make_handler)
    : pool_(config.pool), state_(std::make_shared<state>(std::move(config), std::move(make_handler))) {}

connection_server::connection_server(const asio::io_context::executor_type& executor,
                             connection_server_config config, handler_factory make_handler)
    : pool_(asio::query(executor, asio::execution::context)),
      state_(std::make_shared<state>(std::move(config), std::move(make_handler))) {}

void connection_server::start() {
  listener_ = std::make_unique<listener>(pool_, state_->config.listen,
                                         [st = state_](stream_socket s) { st->on_accept(std::move(s)); });
}

connection_server::~connection_server() { stop(); }

void connection_server::state::on_accept(stream_socket socket) {
  accepted.fetch_add(1, std::memory_order_relaxed);
  auto c = std::make_shared<connection>(
      std::move(socket), config.connection,
      std::make_unique<counted_handler>(shared_from_this(), make_handler()));
  {
    std::lock_guard lock(mutex);
    if (live.size() >= config.max_connections) {
      rejected.fetch_add(1, std::memory_order_relaxed);
      ++close_reasons[std::string(error_name(errc::rejected))];
      return;  // the socket closes with `c`, never started, never counted as live
    }
    live.emplace(c.get(), c);
  }
  c->start();
}

void connection_server::state::on_closed(connection* c, std::error_code reason) {
  std::lock_guard lock(mutex);
  if (live.erase(c) == 0) return;
  ++close_reasons[std::string(error_name(reason))];
  if (live.empty()) {
    all_closed.notify_all();
    if (grace_timer) grace_timer->cancel();  // on a caller's loop: the drain is done (its thread)
  }
}

std::vector<std::shared_ptr<connection>> connection_server::state::open_connections() const {
  std::vector<std::shared_ptr<connection>> open;
  std::lock_guard lock(mutex);
  for (auto& [ptr, weak] : live)
    if (auto c = weak.lock()) open.push_back(std::move(c));
  return open;
}

// The grace is over: what has not drained is cut.
void connection_server::state::close_the_rest() {
  for (auto& c : open_connections()) c->close(errc::shutting_down);
}

void connection_server::stop() {
  std::call_once(stopped_, [this] {
    if (listener_) listener_->close();  // null when never started
    std::vector<std::shared_ptr<connection>> open = state_->open_connections();
    const auto grace = state_->config.grace;
    if (grace.count() > 0)  // 0: at once, no drain begun only to be cut
      for (auto& c : open) c->shutdown_gracefully();
    open.clear();
    if (pool_.external()) {
      // The caller's loop ends the grace: a timer there, canceled when the last one closes.
      asio::io_context& loop = pool_.context(0);
      asio::post(loop, [st = state_, grace, &loop] {
        if (st->open_connections().empty()) return;
        if (grace.count() <= 0) return st->close_the_rest();
        st->grace_timer.emplace(loop, grace);
        // Runs on the loop when the grace is over, or canceled by the last close (on_closed).
        st->grace_timer->async_wait([st](std::error_code ec) {
          if (!ec) st->close_the_rest();
        });
      });
      return;
    }
    {
      std::unique_lock lock(state_->mutex);
      state_->all_closed.wait_for(lock, grace, [this] {
        return state_->live.empty() || state_->grace_ended;
      });
    }
    pool_.stop();  // force-closes whatever did not drain in time, joins the threads
  });
}

void connection_server::end_grace() {
  if (pool_.external()) {
    asio::post(pool_.context(0), [st = state_] { st->close_the_rest(); });
    return;
  }
  std::lock_guard lock(state_->mutex);
  state_->grace_ended = true;
  state_->all_closed.notify_all();
}

server_stats connection_server::stats() const {
  server_stats s;
  s.accepted = state_->accepted.load(std::memory_order_relaxed);
  s.rejected_connections = state_->rejected.load(std::memory_order_relaxed);
  s.accept_errors = listener_ ? listener_->accept_errors() : 0;
  std::lock_guard lock(state_->mutex);
  s.active = state_->live.size();
  s.close_reasons = state_->close_reasons;
  return s;
}

}  // namespace wirebench
