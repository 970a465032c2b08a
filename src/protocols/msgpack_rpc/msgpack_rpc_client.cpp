// msgpack-rpc client: a msgpack-rpc codec on the client engine (ids, deadlines, queue, re-dial):
// requests [0, msgid, "greet", [name]] out, responses matched by msgid. With user calls
// (msgpack_call) every request is [0, msgid, method, params] instead (in a mix, the call its
// payload names), its params packed once from JSON; a response's result, whatever its type, is
// the reply (as text), an error its failure.
#include <deque>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "msgpack_call.hpp"
#include "msgpack_rpc_backend.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "wirebench/protocols/nesting_depth.hpp"
#include "wirebench/protocols/peer_text.hpp"

namespace wirebench::msgpack_rpc {
namespace {

// A user call's method and its params, packed (a msgpack array) at start-up.
struct packed_call {
  std::string method;
  std::string params;
  std::uint64_t keyspace;  // of __rand_int__ in a string param
};

packed_call pack_call(const msgpack_call& call, std::uint64_t keyspace) {
  nlohmann::json params;
  // Judged before nlohmann reads it: its writers recurse once per level.
  if (!nesting_within(call.params_json, max_json_nesting))
    throw setting_error("data", "the JSON nests deeper than " + std::to_string(max_json_nesting) + " levels");
  try {
    params = nlohmann::json::parse(call.params_json);
  } catch (const nlohmann::json::parse_error& e) {
    // Where it goes wrong, in the user's terms, not the library's "[json.exception...]".
    throw setting_error("data", "'" + peer_text(call.params_json, 80) + "': not JSON: it goes wrong at byte " +
                                    std::to_string(e.byte));
  }
  if (!params.is_array())
    throw setting_error("data", "'" + peer_text(call.params_json, 80) + "': MessagePack-RPC params are a JSON array");
  if (call.method.empty()) throw setting_error("method", "give the method's name");
  packed_call packed;
  packed.method = call.method;
  packed.keyspace = keyspace;
  const std::vector<std::uint8_t> bytes = nlohmann::json::to_msgpack(params);
  packed.params.assign(bytes.begin(), bytes.end());
  return packed;
}

// What a reply or error object says, for people: a string as it is, anything else in msgpack's
// own JSON-like notation.
std::string_view text_of(const msgpack::object& o, std::string& storage) {
  if (o.type == msgpack::type::STR) return {o.via.str.ptr, o.via.str.size};
  std::ostringstream printed;
  printed << o;
  storage = printed.str();
  return storage;
}

class rpc_client_codec final : public client_codec {
 public:
  // `calls`: the user's methods and params (several: a mix), or empty for the greet call.
  rpc_client_codec(std::size_t max_frame, std::shared_ptr<const std::vector<packed_call>> calls)
      : decoder_(limits_for(max_frame)), calls_(std::move(calls)) {
    // A placeholder inside a packed string keeps its length: the digits go over it in place.
    for (const packed_call& call : *calls_)
      templates_.push_back({&call, call.params, placeholder_filler(call.params, call.keyspace,
                                                                   next_placeholder_seed())});
  }

  reply_order order() const override { return reply_order::by_id; }

  std::error_code encode(std::uint32_t id, std::string_view request, gather_queue& out) override {
    scratch_.clear();
    if (!templates_.empty()) {
      const auto index = request_index(request, templates_.size());
      if (!index) return make_error_code(errc::invalid_argument);
      call_template& t = templates_[*index];
      string_writer w{scratch_};
      msgpack::packer<string_writer> pk(w);
      pk.pack_array(4);
      pk.pack_uint8(0);
      pk.pack_uint32(id);
      pk.pack_str(static_cast<std::uint32_t>(t.call->method.size()));
      pk.pack_str_body(t.call->method.data(), static_cast<std::uint32_t>(t.call->method.size()));
      if (!t.filler.empty()) t.filler.fill(t.params);
      scratch_.append(t.params);  // packed once
    } else {
      append_request(scratch_, id, "greet", request);
    }
    out.append_bytes(as_bytes(scratch_));
    return {};
  }

  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue&,
                     std::error_code& error) override {
    held_.clear();  // the replies handed out by the last decode are done with
    texts_.clear();
    decoder_.feed(data);
    while (auto message = decoder_.next(error)) {
      const msgpack::object& o = message->get();
      if (type_of(o) == message_type::notification) continue;
      const auto r = as_response(o);
      if (!r) {
        error = errc::protocol_error;
        break;
      }
      if (r->error.type != msgpack::type::NIL) {
        into.replies.push_back({r->msgid, errc::remote_error, text_of(r->error, texts_.emplace_back())});
      } else if (!templates_.empty()) {  // any result is the user method's answer
        into.replies.push_back({r->msgid, {}, text_of(r->result, texts_.emplace_back())});
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
  // One user call: its params, placeholders filled per call.
  struct call_template {
    const packed_call* call;
    std::string params;
    placeholder_filler filler;
  };

  stream_decoder decoder_;
  std::string scratch_;                       // one request's bytes, capacity reused
  std::vector<msgpack::object_handle> held_;  // until the next decode
  std::deque<std::string> texts_;             // printed results and errors, until the next decode
  std::shared_ptr<const std::vector<packed_call>> calls_;  // empty: the greet call
  std::vector<call_template> templates_;                   // one per user call
};

}  // namespace

client_codec_factory client_codecs(const client_config& config) {
  auto calls = std::make_shared<std::vector<packed_call>>();
  for (const user_call& call : config.calls) calls->push_back(pack_call(*call.as<msgpack_call>(), call.keyspace));
  return [max = config.max_frame_bytes, calls = std::shared_ptr<const std::vector<packed_call>>(calls)] {
    return std::make_unique<rpc_client_codec>(max, calls);
  };
}

}  // namespace wirebench::msgpack_rpc
