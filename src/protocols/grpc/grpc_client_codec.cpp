#include "grpc_client_codec.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "grpc_call_stream.hpp"
#include "grpc_dynamic_method.hpp"
#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "grpc_metadata.hpp"
#include "grpc_status.hpp"
#include "grpc_timeout.hpp"
#include "protobuf_log.hpp"
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
using http2::static_header;

// A user call's requests, laid out once per connection: each call's body (its messages, each
// with its prefix), with the placeholders found once. Their placeholders keep their length, so
// each call's copy only gets fresh values.
struct request_template {
  const grpc_dynamic_method* method;
  std::vector<std::string> bodies;          // one per call in turn (usually one)
  std::vector<placeholder_filler> fillers;  // one per body
  std::size_t next = 0;                     // the body the next call sends
  std::vector<std::pair<std::string, std::string>> metadata;  // as sent
};

class grpc_client_codec final : public http2::client_core {
 public:
  explicit grpc_client_codec(const grpc_client_config& config)
      : client_core(max_body(config)),
        authority_(config.authority),
        scheme_(config.https ? "https" : "http"),
        max_message_(config.max_message_bytes),
        requests_(config.requests),
        raw_path_(config.raw_path) {
    if (config.timeout.count() > 0) timeout_ = format_timeout(config.timeout);
    drop_protobuf_parse_complaints();  // a lying server must not be able to flood our stderr
    // Its --reflect requests' metadata (as grpcurl sends -H with those too).
    for (auto& [name, value] : config.raw_metadata) raw_metadata_.emplace_back(name, wire_value(name, value));
    for (const grpc_user_request& r : config.requests) {
      request_template& t = templates_.emplace_back();
      t.method = r.method.get();
      const auto& messages = r.method->request_messages();
      const std::size_t per_call = r.method->messages_per_call();
      for (std::size_t first = 0; first == 0 || first < messages.size(); first += per_call) {
        std::string& body = t.bodies.emplace_back();
        for (std::size_t m = first; m < first + per_call; ++m) {
          append_grpc_prefix(messages[m].size(), false, body);
          body.append(messages[m]);
        }
        t.fillers.emplace_back(body, r.keyspace, next_placeholder_seed());
        if (per_call == 0) break;  // a client stream of no messages: one empty body
      }
      for (auto& [name, value] : r.metadata) t.metadata.emplace_back(name, wire_value(name, value));
    }
  }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    request_template* user = nullptr;
    if (!templates_.empty()) {  // the payload names the request of the mix
      const auto which = request_index(name, templates_.size());
      if (!which) return make_error_code(std::errc::invalid_argument);
      user = &templates_[*which];
    }
    client_stream& s = take_stream(id);
    std::string_view path = "/wirebench.echo.Echo/Greet";
    const std::vector<std::pair<std::string, std::string>>* metadata = &raw_metadata_;
    if (user) {
      s.user_request = static_cast<std::size_t>(user - templates_.data());
      const std::size_t body = user->next;
      user->next = (body + 1) % user->bodies.size();
      s.request.assign(user->bodies[body]);
      if (!user->fillers[body].empty()) user->fillers[body].fill(s.request);
      path = user->method->path();
      metadata = &user->metadata;
    } else if (!raw_path_.empty()) {  // the argument is the message
      append_grpc_prefix(name.size(), false, s.request);
      s.request.append(name);
      path = raw_path_;
    } else {
      request_.mutable_name()->assign(name.data(), name.size());
      request_.SerializeToString(&scratch_);
      append_grpc_prefix(scratch_.size(), false, s.request);  // the record's request is empty
      s.request.append(scratch_);
    }
    s.body_size = s.request.size();
    // Every value lives in the codec (or a literal) until the stream closes: no copies.
    const auto common = grpc_request_headers(scheme_, path, authority_);
    std::array<nghttp2_nv, request_header_count + 1> headers;
    std::copy(common.begin(), common.end(), headers.begin());
    headers.back() = static_header("grpc-timeout", timeout_);
    const std::size_t fixed = timeout_.empty() ? request_header_count : request_header_count + 1;
    if (metadata->empty()) return submit(s, {headers.data(), fixed});
    headers_.assign(headers.begin(), headers.begin() + fixed);  // a user call's metadata after them
    for (const auto& [key, value] : *metadata) headers_.push_back(static_header(key, value));
    return submit(s, headers_);
  }

 private:
  std::unique_ptr<client_stream> make_stream() override {
    return std::make_unique<grpc_call_stream>();
  }
  void response_header(client_stream& s, std::string_view name, std::string_view value) override {
    static_cast<grpc_call_stream&>(s).read_header(name, value);
  }

  codec_reply reply_for(client_stream& s) override {
    auto& g = static_cast<grpc_call_stream&>(s);
    // A gRPC status wins over the HTTP one (a server may send both, as ours does with 415).
    if (g.grpc_status && *g.grpc_status != status_code::ok) {
      std::string& why = kept();
      why = percent_decoded(g.message);
      return {g.call, status_error(*g.grpc_status), why};
    }
    if (g.status != 200) {
      std::string& why = kept();
      why.append(std::to_string(g.status)).append(" ").append(g.body.substr(0, 200));
      return {g.call, unexpected_status(g.status), why};
    }
    if (!g.grpc_status) return {g.call, errc::wrong_reply, "no grpc-status"};
    // The greet call's one GreetReply; a user call's reply in JSON, or for a server-streaming
    // method every reply, as a JSON array.
    const grpc_dynamic_method* method = templates_.empty() ? nullptr : templates_[g.user_request].method;
    const bool many = method && method->server_streaming();
    g.text.clear();
    grpc_message_decoder decoder(max_message_);
    const std::span<const std::byte> body = as_bytes(std::string_view(g.body));
    std::size_t consumed = 0, count = 0;
    for (;;) {
      const auto step = decoder.decode(body.subspan(consumed));
      if (step.status == decode_status::need_more) break;
      if (step.status != decode_status::frame) return {g.call, errc::wrong_reply, {}};
      consumed += step.consumed;
      std::string_view bytes = as_text(step.frame.bytes);
      if (step.frame.compressed) {  // gzip, as we accept; anything else the server should not send
        if (g.encoding != "gzip" || gunzip(step.frame.bytes, max_message_, inflated_))
          return {g.call, errc::wrong_reply, "a compressed reply that cannot be inflated"};
        bytes = inflated_;
      }
      if (++count > 1 && !many) return {g.call, errc::wrong_reply, "more than one reply"};
      if (!raw_path_.empty()) {
        g.text.assign(bytes);
      } else if (method) {
        if (many) g.text.push_back(count == 1 ? '[' : ',');
        if (!method->append_reply_json(bytes, g.text)) return {g.call, errc::wrong_reply, {}};
      } else {
        if (!reply_.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
          return {g.call, errc::wrong_reply, {}};
        g.text.swap(*reply_.mutable_greeting());
      }
    }
    if (consumed != body.size() || (count == 0 && !many)) return {g.call, errc::wrong_reply, {}};
    if (many) g.text.append(count == 0 ? "[]" : "]");
    return {g.call, {}, g.text};
  }

  // The largest response body taken: one message, or with a server-streaming user call up to 64.
  static std::size_t max_body(const grpc_client_config& config) {
    const std::size_t one = config.max_message_bytes + 5;
    for (const grpc_user_request& r : config.requests)
      if (r.method->server_streaming()) return 64 * one;
    return one;
  }

  std::string authority_;
  std::string_view scheme_;  // "https" under TLS, else "http"
  std::size_t max_message_;
  std::vector<grpc_user_request> requests_;  // the user's calls (they own the methods)
  std::vector<request_template> templates_;  // theirs, in order
  std::string raw_path_;                     // a raw call's path ("": not raw)
  std::vector<std::pair<std::string, std::string>> raw_metadata_;  // a raw call's, as sent
  std::vector<nghttp2_nv> headers_;  // a call's headers with the metadata (capacity kept)
  std::string timeout_;      // grpc-timeout's value, "" for none
  pb::GreetRequest request_;  // reused by every call
  pb::GreetReply reply_;
  std::string scratch_;       // a request serialized, before its prefix
  std::string inflated_;      // a compressed reply, inflated
};

}  // namespace

std::unique_ptr<client_codec> make_grpc_client_codec(const grpc_client_config& config) {
  return std::make_unique<grpc_client_codec>(config);
}

}  // namespace wirebench::grpc_wire
