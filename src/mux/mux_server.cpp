#include "wirebench/mux/mux_server.hpp"

#include <map>
#include <random>
#include <unordered_set>

#include <asio/post.hpp>
#include <asio/steady_timer.hpp>
#include <asio/thread_pool.hpp>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/mux_frame.hpp"

namespace wirebench {

struct mux_server::impl {
  impl(mux_server_config c, request_handler h)
      : config(std::move(c)), handler(std::move(h)), workers(std::max<std::size_t>(1, config.workers)) {}
  mux_server_config config;
  request_handler handler;
  asio::thread_pool workers;
  std::unique_ptr<stream_server> server;
  std::once_flag stopped;
};

// One per connection, on that connection's thread. Work runs on the worker pool and comes back
// through post(); the session outlives it because the connection (which owns the session) is
// kept alive by the shared_ptr the work captures.
class mux_server::session final : public connection_handler {
 public:
  explicit session(impl& server)
      : server_(server),
        decoder_({4, server.config.max_frame_bytes + mux_header_bytes, oversize_policy::fail}) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    std::size_t consumed = 0;
    std::uint64_t requests = 0;
    // Backpressure: with max_in_flight requests being worked on, leave the rest unread for now.
    while (in_flight_ < server_.config.max_in_flight) {
      const decode_result r = decoder_.decode(data.subspan(consumed));
      consumed += r.consumed;
      if (r.status == decode_status::need_more) break;
      if (r.status != decode_status::frame) {
        error = r.status == decode_status::too_large ? errc::frame_too_long : errc::corrupt_frame;
        break;
      }
      const auto f = parse_mux_frame(r.frame);
      if (!f) {
        error = errc::protocol_error;
        break;
      }
      switch (f->type) {
        case mux_frame_type::request:
          start(c, f->id, as_text(f->payload));
          ++requests;
          break;
        case mux_frame_type::cancel:
          canceled_.insert(f->id);
          break;
        case mux_frame_type::ping: {
          encoded_frame pong;
          if (!encode_mux_frame(mux_frame_type::pong, f->id, f->payload, SIZE_MAX, pong)) c.send(pong);
          break;
        }
        case mux_frame_type::pong:
          break;
        default:
          error = errc::protocol_error;  // replies and drains do not flow to servers
          break;
      }
      if (error) break;
    }
    if (requests != 0) server_.server->count_requests(requests);
    return consumed;
  }

  void on_close(connection&, std::error_code) override {}
  bool mid_frame() const override { return decoder_.mid_frame(); }
  bool busy() const override { return in_flight_ != 0; }
  void on_drain(connection& c) override {
    encoded_frame f;
    if (!encode_mux_frame(mux_frame_type::drain, 0, {}, 0, f)) c.send(f);
  }

 private:
  struct ready_reply {
    std::uint32_t id;
    bool ok;
    std::string body;
  };

  void start(connection& c, std::uint32_t id, std::string_view request) {
    ++in_flight_;
    const std::uint64_t seq = next_seq_++;
    auto conn = c.shared_from_this();
    if (server_.config.workers == 0) {
      // Inline: the reply is computed here; a service time still runs on a timer, on this thread.
      std::error_code ec;
      std::string body = server_.handler(request, ec);
      ready_reply reply{id, !ec, ec ? ec.message() : std::move(body)};
      const auto delay = server_.config.service_time.sample(rng_);
      if (delay.count() == 0) {
        deliver(c, seq, std::move(reply));
        return;
      }
      auto timer = std::make_shared<asio::steady_timer>(c.executor(), delay);
      timer->async_wait([this, conn, seq, timer, r = std::move(reply)](std::error_code) mutable {
        deliver(*conn, seq, std::move(r));
      });
      return;
    }
    asio::post(server_.workers, [this, conn, seq, id, req = std::string(request)] {
      std::error_code ec;
      std::string body = server_.handler(req, ec);
      ready_reply reply{id, !ec, ec ? ec.message() : std::move(body)};
      thread_local std::mt19937_64 rng{std::random_device{}()};
      const auto delay = server_.config.service_time.sample(rng);
      if (delay.count() == 0) {
        finish(conn, seq, std::move(reply));
        return;
      }
      // The service time holds no thread: a timer on the worker pool.
      auto timer = std::make_shared<asio::steady_timer>(server_.workers, delay);
      timer->async_wait([this, conn, seq, timer, r = std::move(reply)](std::error_code) mutable {
        finish(conn, seq, std::move(r));
      });
    });
  }

  // Any thread: hands the reply back to the connection's thread.
  void finish(const std::shared_ptr<connection>& conn, std::uint64_t seq, ready_reply reply) {
    asio::post(conn->executor(), [this, conn, seq, r = std::move(reply)]() mutable {
      deliver(*conn, seq, std::move(r));
    });
  }

  void deliver(connection& c, std::uint64_t seq, ready_reply reply) {
    --in_flight_;
    if (!server_.config.ordered) {
      send(c, std::move(reply));
    } else {
      // Ordered: hold replies until every earlier one has gone.
      held_.emplace(seq, std::move(reply));
      while (!held_.empty() && held_.begin()->first == next_to_send_) {
        send(c, std::move(held_.begin()->second));
        held_.erase(held_.begin());
        ++next_to_send_;
      }
    }
    c.work_finished();
  }

  void send(connection& c, ready_reply reply) {
    if (canceled_.erase(reply.id) != 0) return;  // the client gave up on it
    encoded_frame f;
    if (encode_mux_frame(reply.ok ? mux_frame_type::reply : mux_frame_type::error_reply, reply.id,
                         as_bytes(reply.body), SIZE_MAX, f))
      return;
    c.send(f.prefix(), std::move(reply.body), {});
  }

  impl& server_;
  length_prefix_decoder decoder_;
  std::size_t in_flight_ = 0;
  std::uint64_t next_seq_ = 0;
  std::uint64_t next_to_send_ = 0;
  std::map<std::uint64_t, ready_reply> held_;
  std::unordered_set<std::uint32_t> canceled_;
  std::mt19937_64 rng_{std::random_device{}()};  // service times sampled on this thread (inline)
};

mux_server::mux_server(mux_server_config config, request_handler handler)
    : impl_(std::make_unique<impl>(std::move(config), std::move(handler))) {
  stream_server_config sc;
  sc.listen = impl_->config.listen;
  sc.pool = {impl_->config.threads, impl_->config.cpus, "mux-srv"};
  sc.connection.max_read_bytes = impl_->config.max_frame_bytes + mux_header_bytes + 4;
  sc.connection.idle_timeout = impl_->config.idle_timeout;
  sc.connection.read_timeout = impl_->config.read_timeout;
  sc.connection.write_timeout = impl_->config.write_timeout;
  sc.max_connections = impl_->config.max_connections;
  sc.drain_timeout = impl_->config.drain_timeout;
  impl_->server = std::make_unique<stream_server>(
      sc, [this] { return std::make_unique<session>(*impl_); });
}

mux_server::~mux_server() { stop(); }

endpoint mux_server::local_endpoint() const { return impl_->server->local_endpoint(); }

void mux_server::stop() {
  std::call_once(impl_->stopped, [this] {
    impl_->server->stop();  // drains: in-flight work finishes and its replies go out
    impl_->workers.join();
  });
}

server_stats mux_server::stats() const { return impl_->server->stats(); }

}  // namespace wirebench
