// msgpack-rpc server: a session on the server skeleton, the shared request dispatcher (replies in
// completion order, the skeleton's optional worker pool, service time), and answers per the spec
// for everything else.
#include <asio/thread_pool.hpp>

#include "msgpack_rpc_backend.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/calls/request_dispatcher.hpp"
#include "../common/greet_server.hpp"

namespace wirebench::msgpack_rpc {
namespace {

// One per connection: decode messages, answer greet through the dispatcher, anything else at once.
class rpc_session : public stream_session {
 public:
  struct settings {
    dispatch_settings dispatch;  // greet's reply, its service time
    std::size_t max_frame_bytes;
  };
  // Each parser keeps what it needs of a partial message itself: a small read buffer will do.
  static std::size_t max_read_bytes(const settings&) { return 64 * 1024; }

  // `workers`: the skeleton's pool, where greet replies are computed (null: on the event loop).
  rpc_session(const settings& s, asio::thread_pool* workers)
      : decoder_(limits_for(s.max_frame_bytes)),
        dispatcher_(s.dispatch, workers,
                    [](connection& c, std::uint64_t msgid, bool ok, std::string&& body) {
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
    count_requests(requests);
    return data.size();  // the unpacker keeps its own copy of an unfinished message
  }

  void on_close(connection&, std::error_code) override {}
  bool mid_frame() const override { return decoder_.mid_message(); }
  std::size_t calls_in_flight() const override { return dispatcher_.in_flight(); }
  bool accepting_input() const override { return dispatcher_.in_flight() < max_in_flight; }

 private:
  static constexpr std::size_t max_in_flight = 4096;  // requests being worked on, per connection

  static void reply_error(connection& c, std::uint32_t msgid, std::string_view why) {
    std::string out;
    append_error_response(out, msgid, why);
    c.send({}, std::move(out), {});
  }

  stream_decoder decoder_;
  request_dispatcher dispatcher_;
};

}  // namespace

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  return std::make_unique<greet_server<rpc_session>>(
      config, "rpc-srv",
      rpc_session::settings{.dispatch = greet_dispatch(config),
                            .max_frame_bytes = config.max_frame_bytes});
}

}  // namespace wirebench::msgpack_rpc
