// HTTP/1.1 without persistent connections: every call connects, sends one request with
// "Connection: close", reads the response and closes — the cost persistence saves. Out of file
// descriptors, a call fails with too_many_files_open (not a crash, not a hang), so a sweep can
// count it.
#include "http1_backend.hpp"
#include "http1_parser.hpp"
#include "../http_common/greet_api.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/transport/io_pool.hpp"
#include "wirebench/transport/listener.hpp"

namespace wirebench::http1 {
namespace {

struct pending_call {
  call_completion done;
  bool finished = false;
  void finish(std::error_code ec, std::string_view reply = {}) {
    if (finished) return;
    finished = true;
    done(ec, reply);
  }
};

class response_handler final : public connection_handler {
 public:
  response_handler(std::shared_ptr<pending_call> call, std::size_t max_body)
      : call_(std::move(call)), parser_(parser::kind::response, limits{16 * 1024, 64, max_body}) {}

  std::size_t on_data(connection&, std::span<const std::byte> data, std::error_code& error) override {
    const std::error_code ec = parser_.parse(data, ready_);
    if (!ready_.empty()) {
      const message& m = ready_.front();
      std::string greeting;
      if (m.status == 200 && http::parse_greeting(m.body, greeting))
        call_->finish({}, greeting);
      else
        call_->finish(m.status == 200 ? errc::wrong_reply : errc::remote_error);
      error = errc::peer_closed;  // one call per connection: done with it
    } else if (ec) {
      error = ec;
    }
    return data.size();
  }
  void on_close(connection&, std::error_code reason) override {
    call_->finish(reason == errc::read_timeout ? errc::timeout : make_error_code(errc::connection_closed));
  }
  bool awaiting_peer() const override { return !call_->finished; }
  bool mid_frame() const override { return parser_.mid_message(); }

 private:
  std::shared_ptr<pending_call> call_;
  parser parser_;
  std::vector<message> ready_;
};

class oneshot_client final : public protocol_client {
 public:
  explicit oneshot_client(const client_config& c)
      : config_(c), host_(host_header(c.connect)), pool_(io_pool_options{c.threads, c.cpus, "http1-1shot"}) {}
  ~oneshot_client() override { close(); }

  void async_greet(std::string_view name, call_completion done) override {
    auto call = std::make_shared<pending_call>();
    call->done = std::move(done);
    async_connect(pool_.next(), config_.connect, config_.connect_timeout,
                  [this, call, request = greet_request(name, host_, false)](std::error_code ec,
                                                                           stream_socket socket) mutable {
                    if (ec) {
                      call->finish(connect_error(ec));
                      return;
                    }
                    connection_config cc;
                    cc.max_read_bytes = 64 * 1024;
                    cc.read_timeout = config_.reply_timeout;
                    auto conn = std::make_shared<connection>(
                        std::move(socket), cc,
                        std::make_unique<response_handler>(call, config_.max_frame_bytes));
                    conn->start();
                    conn->send({}, std::move(request), {});
                  });
  }
  void close() override { pool_.stop(); }

 private:
  client_config config_;
  std::string host_;
  io_pool pool_;
};

}  // namespace

std::unique_ptr<protocol_client> make_oneshot_client(const client_config& config) {
  return std::make_unique<oneshot_client>(config);
}

}  // namespace wirebench::http1
