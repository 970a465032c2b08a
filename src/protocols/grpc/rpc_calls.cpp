#include "rpc_calls.hpp"

#include "grpc_dynamic_method.hpp"
#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "grpc_metadata.hpp"
#include "protobuf_log.hpp"
#include "rpc_message_format.hpp"
#include "../http2/h2_util.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_wire {

rpc_calls::rpc_calls(const grpc_client_config& config)
    : wire_(*config.wire),
      format_(config.wire->format()),
      max_message_(config.max_message_bytes),
      requests_(config.requests),
      raw_path_(config.raw_path) {
  if (config.timeout.count() > 0) timeout_ = wire_.format_timeout(config.timeout);
  drop_protobuf_parse_complaints();  // a lying server must not be able to flood our stderr
  // Its --reflect requests' metadata (as grpcurl sends -H with those too).
  for (auto& [name, value] : config.raw_metadata) raw_metadata_.emplace_back(name, wire_value(name, value));
  templates_.reserve(config.requests.size());  // the headers point into them: no reallocation
  for (const grpc_user_request& r : config.requests) {
    request_template& t = templates_.emplace_back();
    t.method = r.method.get();
    const bool streaming = r.method->client_streaming() || r.method->server_streaming();
    const auto& messages = r.method->request_messages(format_);
    const std::size_t per_call = r.method->messages_per_call();
    for (std::size_t first = 0; first == 0 || first < messages.size(); first += per_call) {
      std::string& body = t.bodies.emplace_back();
      for (std::size_t m = first; m < first + per_call; ++m) append_message(streaming, messages[m], body);
      // A text wire's placeholders are filled in the messages, before the body is wrapped.
      t.fillers.emplace_back(body, r.keyspace, next_placeholder_seed());
      if (per_call == 0) break;  // a client stream of no messages: one empty body
    }
    for (auto& [name, value] : r.metadata) t.metadata.emplace_back(name, wire_value(name, value));
    t.headers = headers_for(streaming, t.metadata);
  }
  call_headers_ = headers_for(false, raw_metadata_);
}

std::size_t rpc_calls::max_body_of(const grpc_client_config& config) {
  // One message and room for the wire's end (a trailers frame, an end of stream), or with a
  // server-streaming user call up to 64.
  const std::size_t one = config.max_message_bytes + 5;
  for (const grpc_user_request& r : config.requests)
    if (r.method->server_streaming()) return config.wire->wrapped_size(64 * one);
  return config.wire->wrapped_size(2 * one);
}

// The wire's headers, then the call's metadata. Every value lives here (or is a literal) until the
// codec goes: nghttp2 does not copy them, and the HTTP/1.1 codec writes them out.
std::vector<nghttp2_nv> rpc_calls::headers_for(bool streaming,
                                               const std::vector<std::pair<std::string, std::string>>& metadata) {
  std::vector<nghttp2_nv> h;
  wire_.request_headers(streaming, format_, timeout_, h);
  for (const auto& [key, value] : metadata) h.push_back(http2::static_header(key, value));
  return h;
}

void rpc_calls::append_message(bool streaming, std::string_view message, std::string& body) const {
  if (!wire_.bare(streaming)) append_grpc_prefix(message.size(), false, body);
  body.append(message);
}

std::error_code rpc_calls::prepare(std::string_view name, std::string& body, call& into) {
  if (!templates_.empty()) {  // the payload names the request of the mix
    const auto which = request_index(name, templates_.size());
    if (!which) return make_error_code(std::errc::invalid_argument);
    request_template& t = templates_[*which];
    const std::size_t next = t.next;
    t.next = (next + 1) % t.bodies.size();
    body.assign(t.bodies[next]);
    if (!t.fillers[next].empty()) t.fillers[next].fill(body);
    wire_.wrap_body(body, wrapped_);
    into = {.request = *which, .path = t.method->path(), .headers = &t.headers};
    return {};
  }
  body.clear();
  if (!raw_path_.empty()) {  // the argument is the message
    append_message(false, name, body);
    wire_.wrap_body(body, wrapped_);
    into = {.request = 0, .path = raw_path_, .headers = &call_headers_};
    return {};
  }
  request_.mutable_name()->assign(name.data(), name.size());
  serialize_message(format_, request_, scratch_);
  append_message(false, scratch_, body);
  wire_.wrap_body(body, wrapped_);
  into = {.request = 0, .path = greet_path, .headers = &call_headers_};
  return {};
}

codec_reply rpc_calls::verdict(std::uint32_t id, std::size_t request, const rpc_response& response,
                               std::string& text, std::string& why) {
  // The greet call's one GreetReply; a user call's reply in JSON, or for a server-streaming
  // method every reply, as a JSON array.
  method_ = templates_.empty() ? nullptr : templates_[request].method;
  many_ = method_ && method_->server_streaming();
  const bool streaming = method_ && (method_->client_streaming() || many_);
  count_ = 0;
  why_ = {};
  encoding_ = response.encoding;
  text_ = &text;
  text.clear();
  rpc_response unwrapped = response;
  const auto body = wire_.unwrap_body(response.body, wrapped_);
  if (!body) {
    why = "a body that is not in the wire's encoding (base64)";
    return {id, errc::wrong_reply, why};
  }
  unwrapped.body = *body;
  rpc_outcome end = wire_.read_response(unwrapped, streaming, max_message_, *this);
  if (end.error) {
    why = why_.empty() ? std::move(end.message) : std::string(why_);
    return {id, end.error, why};
  }
  if (end.code != status_code::ok) {
    why = std::move(end.message);
    return {id, wire_.failed(end.code), why};
  }
  if (count_ == 0 && !many_) return {id, errc::wrong_reply, {}};
  if (many_) text.append(count_ == 0 ? "[]" : "]");
  return {id, {}, text};
}

bool rpc_calls::take(std::string_view bytes, bool compressed) {
  if (compressed) {  // gzip, as we accept; anything else the server should not send
    if (encoding_ != "gzip" || gunzip(as_bytes(bytes), max_message_, inflated_))
      return (why_ = "a compressed reply that cannot be inflated"), false;
    bytes = inflated_;
  }
  if (++count_ > 1 && !many_) return (why_ = "more than one reply"), false;
  std::string& text = *text_;
  if (!raw_path_.empty()) {
    text.assign(bytes);
  } else if (method_) {
    if (many_) text.push_back(count_ == 1 ? '[' : ',');
    if (!method_->append_reply_json(format_, bytes, text)) return false;
  } else {
    if (!parse_message(format_, bytes, reply_)) return false;
    text.swap(*reply_.mutable_greeting());
  }
  return true;
}

}  // namespace wirebench::grpc_wire
