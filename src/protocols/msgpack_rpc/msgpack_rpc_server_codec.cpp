// The msgpack-rpc server codec: requests for "greet" are calls keyed by their msgid (replies in
// completion order); every other request is answered with an error response per the spec; a
// notification is taken and ignored (no reply is due, and greet has no effect).
#include "msgpack_rpc_backend.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::msgpack_rpc {
namespace {

class greet_server_codec final : public server_codec {
 public:
  explicit greet_server_codec(std::size_t max_frame_bytes) : decoder_(limits_for(max_frame_bytes)) {}

  bool ordered() const override { return false; }

  // The unpacker keeps its own copy of what it is given: the first call takes every byte, and
  // later ones (with none) hand out the messages it holds, one at a time. A call's argument
  // points into the message kept in `current_`, valid until the next decode().
  std::size_t decode(std::span<const std::byte> data, server_request& into, gather_queue&,
                     std::error_code& error) override {
    decoder_.feed(data);
    for (;;) {
      auto message = decoder_.next(error);
      if (!message) return data.size();
      current_ = std::move(*message);
      const msgpack::object& o = current_.get();
      if (type_of(o) == message_type::notification) continue;
      std::optional<std::uint32_t> msgid;
      const auto req = as_request(o, &msgid);
      if (!req) {
        if (!msgid) error = errc::protocol_error;  // not even a request we can answer
        else answer(into, server_request::kind::notice, *msgid,
                    "malformed request: expected [0, msgid, method, params]");
      } else if (req->method != "greet") {
        answer(into, server_request::kind::answered, req->msgid,
               "unknown method '" + std::string(req->method) + "'");
      } else if (req->params.via.array.size != 1 ||
                 req->params.via.array.ptr[0].type != msgpack::type::STR) {
        answer(into, server_request::kind::answered, req->msgid, "greet takes one string parameter");
      } else {
        const msgpack::object& name = req->params.via.array.ptr[0];
        into.what = server_request::kind::call;
        into.key = req->msgid;
        into.argument = std::string_view(name.via.str.ptr, name.via.str.size);
      }
      return data.size();
    }
  }

  void encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue& out) override {
    scratch_.clear();
    if (ok) append_response(scratch_, static_cast<std::uint32_t>(key), body);
    else append_error_response(scratch_, static_cast<std::uint32_t>(key), body);
    out.append_bytes(as_bytes(scratch_));
  }

  bool mid_request() const override { return decoder_.mid_message(); }
  // The unpacker keeps what it needs of a partial message itself: a small read buffer will do.
  std::size_t max_read_bytes() const override { return 64 * 1024; }

 private:
  static void answer(server_request& into, server_request::kind what, std::uint32_t msgid,
                     std::string_view why) {
    into.what = what;
    into.key = msgid;
    into.answer.clear();
    append_error_response(into.answer, msgid, why);
  }

  stream_decoder decoder_;
  msgpack::object_handle current_;
  std::string scratch_;  // one reply's bytes, its capacity reused
};

}  // namespace

server_codec_factory server_codecs(const server_config& config) {
  return [max = config.max_frame_bytes] { return std::make_unique<greet_server_codec>(max); };
}

}  // namespace wirebench::msgpack_rpc
