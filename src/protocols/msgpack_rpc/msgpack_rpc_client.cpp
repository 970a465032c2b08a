// msgpack-rpc client: the shared multiplexing client (ids, deadlines, queue) with a msgpack-rpc
// wire: requests [0, msgid, "greet", [name]] out, responses matched by msgid.
#include "msgpack_rpc_backend.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/client_wire.hpp"
#include "wirebench/mux/mux_client.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench::msgpack_rpc {
namespace {

// The client side of the wire: requests out, responses matched by msgid in the shared client.
class rpc_client_wire final : public client_wire {
 public:
  explicit rpc_client_wire(std::size_t max_frame) : decoder_(limits_for(max_frame)) {}

  std::size_t decode(connection&, std::span<const std::byte> data, reply_sink& sink,
                     std::error_code& error) override {
    if ((error = decoder_.feed(data))) return data.size();
    while (auto message = decoder_.next(error)) {
      const msgpack::object& o = message->get();
      if (type_of(o) == message_type::notification) continue;
      const auto r = as_response(o);
      if (!r) {
        error = errc::protocol_error;
        break;
      }
      bool matched;
      if (r->error.type == msgpack::type::NIL) {
        if (r->result.type != msgpack::type::STR) {
          matched = sink.reply(r->msgid, errc::wrong_reply, {});
        } else {
          matched = sink.reply(r->msgid, {}, std::string_view(r->result.via.str.ptr, r->result.via.str.size));
        }
      } else {
        const std::string why = r->error.type == msgpack::type::STR
                                    ? std::string(r->error.via.str.ptr, r->error.via.str.size)
                                    : "remote error";
        matched = sink.reply(r->msgid, errc::remote_error, why);
      }
      if (!matched) {
        error = errc::protocol_error;
        break;
      }
    }
    return data.size();
  }
  void write_request(connection& c, std::uint32_t id, std::string&& payload) override {
    std::string out;
    append_request(out, id, "greet", payload);
    c.send({}, std::move(out), {});
  }
  bool write_cancel(connection&, std::uint32_t) override { return false; }  // not in the spec
  bool mid_frame() const override { return decoder_.mid_message(); }
  std::size_t max_frame_bytes() const override { return 64 * 1024; }

 private:
  stream_decoder decoder_;
};

class rpc_client final : public protocol_client {
 public:
  explicit rpc_client(const client_config& c) : timeout_(c.reply_timeout), client_(make_config(c)) {}
  void async_greet(std::string_view name, call_completion done) override {
    client_.async_call(std::string(name), std::chrono::steady_clock::now() + timeout_, std::move(done));
  }
  void close() override { client_.close(); }

 private:
  static mux_client_config make_config(const client_config& c) {
    mux_client_config m;
    m.connect = c.connect;
    m.connections = c.connections;
    m.threads = c.threads;
    m.cpus = c.cpus;
    m.max_frame_bytes = c.max_frame_bytes;
    m.connect_timeout = c.connect_timeout;
    m.wire = [max = c.max_frame_bytes] { return std::make_unique<rpc_client_wire>(max); };
    return m;
  }
  std::chrono::steady_clock::duration timeout_;
  mux_client client_;
};

}  // namespace

std::unique_ptr<protocol_client> make_client(const client_config& config) {
  return std::make_unique<rpc_client>(config);
}

}  // namespace wirebench::msgpack_rpc
