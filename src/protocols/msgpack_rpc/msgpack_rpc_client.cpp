// msgpack-rpc client: a msgpack-rpc codec on the client engine (ids, deadlines, queue, re-dial):
// requests [0, msgid, "greet", [name]] out, responses matched by msgid.
#include <vector>

#include "msgpack_rpc_backend.hpp"
#include "../common/backend_support.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::msgpack_rpc {
namespace {

class rpc_client_codec final : public client_codec {
 public:
  explicit rpc_client_codec(std::size_t max_frame) : decoder_(limits_for(max_frame)) {}

  reply_order order() const override { return reply_order::by_id; }

  std::error_code encode(std::uint32_t id, std::string_view request, gather_queue& out) override {
    scratch_.clear();
    append_request(scratch_, id, "greet", request);
    out.append_bytes(as_bytes(scratch_));
    return {};
  }

  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue&,
                     std::error_code& error) override {
    held_.clear();  // the replies handed out by the last decode are done with
    if ((error = decoder_.feed(data))) return data.size();
    while (auto message = decoder_.next(error)) {
      const msgpack::object& o = message->get();
      if (type_of(o) == message_type::notification) continue;
      const auto r = as_response(o);
      if (!r) {
        error = errc::protocol_error;
        break;
      }
      if (r->error.type != msgpack::type::NIL) {
        const std::string_view why = r->error.type == msgpack::type::STR
                                         ? std::string_view(r->error.via.str.ptr, r->error.via.str.size)
                                         : std::string_view("remote error");
        into.replies.push_back({r->msgid, errc::remote_error, why});
      } else if (r->result.type != msgpack::type::STR) {
        into.replies.push_back({r->msgid, errc::wrong_reply, {}});
      } else {
        into.replies.push_back(
            {r->msgid, {}, std::string_view(r->result.via.str.ptr, r->result.via.str.size)});
      }
      held_.push_back(std::move(*message));  // the views above point into its zone
    }
    return data.size();  // the unpacker keeps what it needs
  }

  bool mid_reply() const override { return decoder_.mid_message(); }
  std::size_t max_read_bytes() const override { return 64 * 1024; }

 private:
  stream_decoder decoder_;
  std::string scratch_;                       // one request's bytes, capacity reused
  std::vector<msgpack::object_handle> held_;  // until the next decode
};

}  // namespace

client_codec_factory client_codecs(const client_config& config) {
  return [max = config.max_frame_bytes] { return std::make_unique<rpc_client_codec>(max); };
}

}  // namespace wirebench::msgpack_rpc
