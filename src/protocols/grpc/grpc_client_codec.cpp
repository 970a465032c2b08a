#include "grpc_client_codec.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "grpc_dynamic_method.hpp"
#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "grpc_metadata.hpp"
#include "grpc_status.hpp"
#include "grpc_timeout.hpp"
#include "protobuf_log.hpp"
#include "rpc_message_format.hpp"
#include "proto/echo.pb.h"
#include "../http2/h2_client_core.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/status_error.hpp"
#include "wirebench/protocols/call_placeholder.hpp"

namespace wirebench::grpc_wire {
namespace {

namespace pb = ::wirebench::echo;
using http2::client_stream;

// A user call's requests, laid out once per connection: each call's body (its messages, each
// enveloped, or the one bare message where the wire sends it bare), with the placeholders found
// once. Their placeholders keep their length, so each call's copy only gets fresh values. And the
// call's headers, made once: every value lives in the codec until it goes.
struct request_template {
  const grpc_dynamic_method* method;
  std::vector<std::string> bodies;          // one per call in turn (usually one)
  std::vector<placeholder_filler> fillers;  // one per body
  std::size_t next = 0;                     // the body the next call sends
  std::vector<std::pair<std::string, std::string>> metadata;  // as sent
  std::vector<nghttp2_nv> headers;
};

// A call's stream, with what the response's headers and trailers said (by the wire's slots).
struct rpc_call_stream : client_stream {
  void reset() override {
    client_stream::reset();
    content_type.clear();
    encoding.clear();
    rpc_status.reset();
    rpc_message.clear();
  }
  std::string content_type, encoding;
  std::optional<status_code> rpc_status;  // the status the wire reads from a header or trailer
  std::string rpc_message;                // its message, as sent
};

class grpc_client_codec final : public http2::client_core, private message_sink {
 public:
  explicit grpc_client_codec(const grpc_client_config& config)
      : client_core(max_body(config)),
        wire_(*config.wire),
        format_(config.format),
        authority_(config.authority),
        scheme_(config.https ? "https" : "http"),
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
      const auto& messages = r.method->request_messages();
      const std::size_t per_call = r.method->messages_per_call();
      for (std::size_t first = 0; first == 0 || first < messages.size(); first += per_call) {
        std::string& body = t.bodies.emplace_back();
        for (std::size_t m = first; m < first + per_call; ++m) append_message(streaming, messages[m], body);
        t.fillers.emplace_back(body, r.keyspace, next_placeholder_seed());
        if (per_call == 0) break;  // a client stream of no messages: one empty body
      }
      for (auto& [name, value] : r.metadata) t.metadata.emplace_back(name, wire_value(name, value));
      t.headers = headers_for(r.method->path(), streaming, t.metadata);
    }
    const std::string_view path = raw_path_.empty() ? std::string_view(greet_path) : raw_path_;
    call_headers_ = headers_for(path, false, raw_metadata_);
  }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    request_template* user = nullptr;
    if (!templates_.empty()) {  // the payload names the request of the mix
      const auto which = request_index(name, templates_.size());
      if (!which) return make_error_code(std::errc::invalid_argument);
      user = &templates_[*which];
    }
    client_stream& s = take_stream(id);
    if (user) {
      s.user_request = static_cast<std::size_t>(user - templates_.data());
      const std::size_t body = user->next;
      user->next = (body + 1) % user->bodies.size();
      s.request.assign(user->bodies[body]);
      if (!user->fillers[body].empty()) user->fillers[body].fill(s.request);
    } else if (!raw_path_.empty()) {  // the argument is the message
      append_message(false, name, s.request);
    } else {
      request_.mutable_name()->assign(name.data(), name.size());
      serialize_message(format_, request_, scratch_);
      append_message(false, scratch_, s.request);  // the record's request is empty
    }
    s.body_size = s.request.size();
    return submit(s, user ? user->headers : call_headers_);
  }

 private:
  static constexpr std::string_view greet_path = "/wirebench.echo.Echo/Greet";

  // A call's headers: the pseudo-headers, the wire's, then the call's metadata. Every value lives
  // in the codec (or is a literal) until the stream closes: nghttp2 does not copy them.
  std::vector<nghttp2_nv> headers_for(std::string_view path, bool streaming,
                                      const std::vector<std::pair<std::string, std::string>>& metadata) {
    std::vector<nghttp2_nv> h = {http2::static_header(":method", "POST"),
                                 http2::static_header(":scheme", scheme_),
                                 http2::static_header(":path", path),
                                 http2::static_header(":authority", authority_)};
    wire_.request_headers(streaming, format_, timeout_, h);
    for (const auto& [key, value] : metadata) h.push_back(http2::static_header(key, value));
    return h;
  }

  // One request message, bare or enveloped as the wire sends a call of this shape.
  void append_message(bool streaming, std::string_view message, std::string& body) const {
    if (!wire_.bare(streaming)) append_grpc_prefix(message.size(), false, body);
    body.append(message);
  }

  std::unique_ptr<client_stream> make_stream() override { return std::make_unique<rpc_call_stream>(); }
  void response_header(client_stream& s, std::string_view name, std::string_view value) override {
    auto& c = static_cast<rpc_call_stream&>(s);
    if (name == "content-type") return void(c.content_type = value);
    switch (wire_.response_header_slot(name)) {
      case 0: c.encoding = value; break;
      // Not a number: a status the peer did not send (UNKNOWN, as grpc's clients read it).
      case 1: c.rpc_status = parse_status(value).value_or(status_code::unknown); break;
      case 2: c.rpc_message = value; break;
      default: break;
    }
  }

  codec_reply reply_for(client_stream& s) override {
    auto& c = static_cast<rpc_call_stream&>(s);
    // The greet call's one GreetReply; a user call's reply in JSON, or for a server-streaming
    // method every reply, as a JSON array.
    reading_ = &c;
    method_ = templates_.empty() ? nullptr : templates_[c.user_request].method;
    many_ = method_ && method_->server_streaming();
    const bool streaming = method_ && (method_->client_streaming() || many_);
    count_ = 0;
    why_ = {};
    c.text.clear();
    const rpc_response response{.http_status = c.status,
                                .content_type = c.content_type,
                                .encoding = c.encoding,
                                .header_status = c.rpc_status,
                                .header_message = c.rpc_message,
                                .body = c.body};
    rpc_outcome end = wire_.read_response(response, streaming, max_message_, *this);
    if (end.error) {
      std::string& why = kept();
      why = why_.empty() ? std::move(end.message) : std::string(why_);
      return {c.call, end.error, why};
    }
    if (end.code != status_code::ok) {
      std::string& why = kept();
      why = std::move(end.message);
      return {c.call, wire_.failed(end.code), why};
    }
    if (count_ == 0 && !many_) return {c.call, errc::wrong_reply, {}};
    if (many_) c.text.append(count_ == 0 ? "[]" : "]");
    return {c.call, {}, c.text};
  }

  // message_sink: one reply message of the response reply_for reads.
  bool take(std::string_view bytes, bool compressed) override {
    rpc_call_stream& c = *reading_;
    if (compressed) {  // gzip, as we accept; anything else the server should not send
      if (c.encoding != "gzip" || gunzip(as_bytes(bytes), max_message_, inflated_))
        return (why_ = "a compressed reply that cannot be inflated"), false;
      bytes = inflated_;
    }
    if (++count_ > 1 && !many_) return (why_ = "more than one reply"), false;
    if (!raw_path_.empty()) {
      c.text.assign(bytes);
    } else if (method_) {
      if (many_) c.text.push_back(count_ == 1 ? '[' : ',');
      if (!method_->append_reply_json(bytes, c.text)) return false;
    } else {
      if (!parse_message(format_, bytes, reply_)) return false;
      c.text.swap(*reply_.mutable_greeting());
    }
    return true;
  }

  // The largest response body taken: one message, or with a server-streaming user call up to 64.
  static std::size_t max_body(const grpc_client_config& config) {
    const std::size_t one = config.max_message_bytes + 5;
    for (const grpc_user_request& r : config.requests)
      if (r.method->server_streaming()) return 64 * one;
    return 2 * one;  // one message, and room for the wire's end (a trailers frame, an end of stream)
  }

  const rpc_client_wire& wire_;
  message_format format_;
  std::string authority_;
  std::string_view scheme_;  // "https" under TLS, else "http"
  std::size_t max_message_;
  std::vector<grpc_user_request> requests_;  // the user's calls (they own the methods)
  std::vector<request_template> templates_;  // theirs, in order
  std::string raw_path_;                     // a raw call's path ("": not raw)
  std::vector<std::pair<std::string, std::string>> raw_metadata_;  // a raw call's, as sent
  std::string timeout_;      // the wire's timeout header's value, "" for none
  std::vector<nghttp2_nv> call_headers_;  // the greet (or raw) call's headers
  pb::GreetRequest request_;  // reused by every call
  pb::GreetReply reply_;
  std::string scratch_;       // a request serialized, before its prefix
  std::string inflated_;      // a compressed reply, inflated
  // The response reply_for is reading, for take().
  rpc_call_stream* reading_ = nullptr;
  const grpc_dynamic_method* method_ = nullptr;
  bool many_ = false;
  std::size_t count_ = 0;
  std::string_view why_;
};

}  // namespace

std::unique_ptr<client_codec> make_grpc_client_codec(const grpc_client_config& config) {
  return std::make_unique<grpc_client_codec>(config);
}

}  // namespace wirebench::grpc_wire
