// msgpack-rpc client: the shared multiplexing client (ids, deadlines, queue) with a msgpack-rpc
// wire: requests [0, msgid, "greet", [name]] out, responses matched by msgid.
#include "msgpack_rpc_backend.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/mux/client_wire.hpp"
#include "../common/backend_support.hpp"
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

}  // namespace

std::unique_ptr<protocol_client> make_client(const client_config& config) {
  mux_client_config m = multiplexing_config(config);
  m.wire = [max = config.max_frame_bytes] { return std::make_unique<rpc_client_wire>(max); };
  return std::make_unique<multiplexed_greet_client>(config, std::move(m));
}

}  // namespace wirebench::msgpack_rpc
