// msgpack-rpc server: our transport, the shared request dispatcher (replies in completion order,
// optional worker pool and service time), and answers per the spec for everything else.
#include <optional>

#include <asio/thread_pool.hpp>

#include "msgpack_rpc_backend.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/request_dispatcher.hpp"
#include "../common/backend_support.hpp"

namespace wirebench::msgpack_rpc {
namespace {

// One per connection: decode messages, answer greet through the dispatcher, anything else at once.
class rpc_session final : public connection_handler {
 public:
  rpc_session(stream_server& server, const dispatch_settings& dispatch, const server_config& config)
      : server_(server),
        decoder_(limits_for(config.max_frame_bytes)),
        dispatcher_(dispatch, [](connection& c, std::uint64_t msgid, bool ok, std::string&& body) {
          std::string out;
          if (ok)
            append_response(out, static_cast<std::uint32_t>(msgid), body);
          else
            append_error_response(out, static_cast<std::uint32_t>(msgid), body);
          c.send({}, std::move(out), {});
        }) {}

  std::size_t on_data(connection& c, std::span<const std::byte> data,
                      std::error_code& error) override {
    if ((error = decoder_.feed(data))) return data.size();
    std::uint64_t requests = 0;
    // Backpressure: at the in-flight cap, complete messages wait in the decoder and reading
    // pauses (accepting_input) until replies have gone out.
    while (accepting_input()) {
      auto message = decoder_.next(error);
      if (!message) break;
      const msgpack::object& o = message->get();
      const auto type = type_of(o);
      if (type == message_type::notification) continue;  // no reply is due; greet has no effect
      std::optional<std::uint32_t> msgid;
      const auto req = as_request(o, &msgid);
      if (!req) {
        if (!msgid) {  // not a request we can even answer: the stream is not msgpack-rpc
          error = errc::protocol_error;
          break;
        }
        reply_error(c, *msgid, "malformed request: expected [0, msgid, method, params]");
        continue;
      }
      ++requests;
      if (req->method != "greet") {
        reply_error(c, req->msgid, "unknown method '" + std::string(req->method) + "'");
        continue;
      }
      if (req->params.via.array.size != 1 || req->params.via.array.ptr[0].type != msgpack::type::STR) {
        reply_error(c, req->msgid, "greet takes one string parameter");
        continue;
      }
      const msgpack::object& name = req->params.via.array.ptr[0];
      dispatcher_.start(c, req->msgid, std::string_view(name.via.str.ptr, name.via.str.size));
    }
    if (requests != 0) server_.count_requests(requests);
    return data.size();  // the unpacker keeps its own copy of an unfinished message
  }

  void on_close(connection&, std::error_code) override {}
  bool mid_frame() const override { return decoder_.mid_message(); }
  bool busy() const override { return dispatcher_.in_flight() != 0; }
  bool accepting_input() const override { return dispatcher_.in_flight() < max_in_flight; }

 private:
  static constexpr std::size_t max_in_flight = 4096;  // requests being worked on, per connection

  static void reply_error(connection& c, std::uint32_t msgid, std::string_view why) {
    std::string out;
    append_error_response(out, msgid, why);
    c.send({}, std::move(out), {});
  }

  stream_server& server_;
  stream_decoder decoder_;
  request_dispatcher dispatcher_;
};

class rpc_server final : public protocol_server {
 public:
  explicit rpc_server(const server_config& c) : config_(c) {
    if (c.workers != 0) workers_.emplace(c.workers);
    dispatch_.handler = [](std::string_view name, std::error_code&) {
      std::string reply = "hello, ";
      reply.append(name);
      return reply;
    };
    dispatch_.pool = workers_ ? &*workers_ : nullptr;
    dispatch_.service_time = c.service_time;
    // Each parser keeps what it needs of a partial message itself: a small read buffer will do.
    const stream_server_config sc = transport_config(c, "rpc-srv", 64 * 1024);
    server_ = std::make_unique<stream_server>(sc, [this](stream_server& server) {
      return std::make_unique<rpc_session>(server, dispatch_, config_);
    });
  }
  ~rpc_server() override { stop(); }
  endpoint local_endpoint() const override { return server_->local_endpoint(); }
  void stop() override {
    std::call_once(stopped_, [this] {
      server_->stop();
      if (workers_) workers_->join();
    });
  }
  server_stats stats() const override { return server_->stats(); }

 private:
  server_config config_;
  std::optional<asio::thread_pool> workers_;
  dispatch_settings dispatch_;
  std::unique_ptr<stream_server> server_;
  std::once_flag stopped_;
};

}  // namespace

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  return std::make_unique<rpc_server>(config);
}

}  // namespace wirebench::msgpack_rpc
