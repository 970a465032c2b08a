#include "wirebench/mux/mux_server.hpp"

#include <optional>

#include <asio/thread_pool.hpp>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/codec/length_prefix_decoder.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/mux_frame.hpp"
#include "wirebench/mux/request_dispatcher.hpp"

namespace wirebench {

struct mux_server::impl {
  impl(mux_server_config c, request_handler h) : config(std::move(c)) {
    if (config.workers != 0) workers.emplace(config.workers);
    dispatch.handler = std::move(h);
    dispatch.pool = workers ? &*workers : nullptr;
    dispatch.service_time = config.service_time;
    dispatch.ordered = config.ordered;
  }
  mux_server_config config;
  std::optional<asio::thread_pool> workers;  // none: replies computed inline
  dispatch_settings dispatch;
  std::unique_ptr<stream_server> server;
  std::once_flag stopped;
};

// One per connection, on that connection's thread. Work runs on the worker pool and comes back
// through post(); the session outlives it because the connection (which owns the session) is
// kept alive by the shared_ptr the work captures.
class mux_server::session final : public connection_handler {
 public:
  session(impl& server, stream_server& transport)
      : server_(server),
        transport_(transport),
        decoder_({4, server.config.max_frame_bytes + mux_header_bytes, oversize_policy::fail}),
        dispatcher_(server.dispatch, [](connection& c, std::uint64_t id, bool ok, std::string&& body) {
          encoded_frame f;
          if (!encode_mux_frame(ok ? mux_frame_type::reply : mux_frame_type::error_reply,
                                static_cast<std::uint32_t>(id), as_bytes(body), SIZE_MAX, f))
            c.send(f.prefix(), std::move(body), {});
        }) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    std::size_t consumed = 0;
    std::uint64_t requests = 0;
    // Backpressure: with max_in_flight requests being worked on, leave the rest in the buffer;
    // accepting_input() then pauses reading until replies have gone out.
    while (accepting_input()) {
      const auto f = next_mux_frame(decoder_, data, consumed, error);
      if (!f) break;
      switch (f->type) {
        case mux_frame_type::request:
          dispatcher_.start(c, f->id, as_text(f->payload));
          ++requests;
          break;
        case mux_frame_type::cancel:
          dispatcher_.cancel(f->id);
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
    if (requests != 0) transport_.count_requests(requests);
    return consumed;
  }

  void on_close(connection&, std::error_code) override {}
  bool mid_frame() const override { return decoder_.mid_frame(); }
  bool busy() const override { return dispatcher_.in_flight() != 0; }
  bool accepting_input() const override {
    return dispatcher_.in_flight() < server_.config.max_in_flight;
  }
  void on_drain(connection& c) override {
    encoded_frame f;
    if (!encode_mux_frame(mux_frame_type::drain, 0, {}, 0, f)) c.send(f);
  }

 private:
  impl& server_;
  stream_server& transport_;  // handed to us: impl::server may still be being assigned
  length_prefix_decoder decoder_;
  request_dispatcher dispatcher_;
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
      sc, [this](stream_server& transport) { return std::make_unique<session>(*impl_, transport); });
}

mux_server::~mux_server() { stop(); }

endpoint mux_server::local_endpoint() const { return impl_->server->local_endpoint(); }

void mux_server::stop() {
  std::call_once(impl_->stopped, [this] {
    impl_->server->stop();  // drains: in-flight work finishes and its replies go out
    if (impl_->workers) impl_->workers->join();
  });
}

server_stats mux_server::stats() const { return impl_->server->stats(); }

}  // namespace wirebench
