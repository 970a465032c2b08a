#include "wirebench/transport/stream_server.hpp"

#include "wirebench/core/error.hpp"

namespace wirebench {

// Wraps the protocol's handler to keep the server's books when the connection closes.
class stream_server::counted_handler final : public connection_handler {
 public:
  counted_handler(stream_server& server, std::unique_ptr<connection_handler> inner)
      : server_(server), inner_(std::move(inner)) {}
  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    return inner_->on_data(c, data, error);
  }
  void on_close(connection& c, std::error_code reason) override {
    server_.on_closed(&c, reason);  // booked first: whoever the protocol tells sees the count
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
  stream_server& server_;
  std::unique_ptr<connection_handler> inner_;
};

stream_server::stream_server(stream_server_config config, handler_factory make_handler)
    : config_(std::move(config)), make_handler_(std::move(make_handler)), pool_(config_.pool) {}

void stream_server::start() {
  listener_ = std::make_unique<listener>(pool_, config_.listen,
                                         [this](stream_socket s) { on_accept(std::move(s)); });
}

stream_server::~stream_server() { stop(); }

void stream_server::on_accept(stream_socket socket) {
  accepted_.fetch_add(1, std::memory_order_relaxed);
  auto c = std::make_shared<connection>(
      std::move(socket), config_.connection,
      std::make_unique<counted_handler>(*this, make_handler_()));
  {
    std::lock_guard lock(mutex_);
    if (live_.size() >= config_.max_connections) {
      rejected_.fetch_add(1, std::memory_order_relaxed);
      ++close_reasons_[std::string(error_name(errc::rejected))];
      return;  // the socket closes with `c`, never started, never counted as live
    }
    live_.emplace(c.get(), c);
  }
  c->start();
}

void stream_server::on_closed(connection* c, std::error_code reason) {
  std::lock_guard lock(mutex_);
  if (live_.erase(c) == 0) return;
  ++close_reasons_[std::string(error_name(reason))];
  if (live_.empty()) all_closed_.notify_all();
}

void stream_server::stop() {
  std::call_once(stopped_, [this] {
    if (listener_) listener_->close();  // null when never started
    std::vector<std::shared_ptr<connection>> open;
    {
      std::lock_guard lock(mutex_);
      for (auto& [ptr, weak] : live_)
        if (auto c = weak.lock()) open.push_back(std::move(c));
    }
    if (config_.grace.count() > 0)  // 0: at once, no drain begun only to be cut
      for (auto& c : open) c->shutdown_gracefully();
    open.clear();
    {
      std::unique_lock lock(mutex_);
      all_closed_.wait_for(lock, config_.grace, [this] { return live_.empty() || grace_ended_; });
    }
    pool_.stop();  // force-closes whatever did not drain in time, joins the threads
  });
}

void stream_server::end_grace() {
  std::lock_guard lock(mutex_);
  grace_ended_ = true;
  all_closed_.notify_all();
}

server_stats stream_server::stats() const {
  server_stats s;
  s.accepted = accepted_.load(std::memory_order_relaxed);
  s.rejected_connections = rejected_.load(std::memory_order_relaxed);
  s.accept_errors = listener_ ? listener_->accept_errors() : 0;
  std::lock_guard lock(mutex_);
  s.active = live_.size();
  s.close_reasons = close_reasons_;
  return s;
}

}  // namespace wirebench
