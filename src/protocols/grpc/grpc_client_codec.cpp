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

class grpc_client_codec final : public http2::client_core {
 public:
  explicit grpc_client_codec(const grpc_client_config& config)
      : client_core(max_body(config)),
        authority_(config.authority),
        scheme_(config.https ? "https" : "http"),
        max_message_(config.max_message_bytes),
        method_(config.method),
        raw_path_(config.raw_path),
        path_(method_              ? std::string_view(method_->path())
              : raw_path_.empty() ? std::string_view("/wirebench.echo.Echo/Greet")
                                  : std::string_view(raw_path_)) {
    if (config.timeout.count() > 0) timeout_ = format_timeout(config.timeout);
    drop_protobuf_parse_complaints();  // a lying server must not be able to flood our stderr
    // A user call's, or its --reflect requests' (as grpcurl sends -H with those too).
    for (auto& [name, value] : config.metadata) metadata_.emplace_back(name, wire_value(name, value));
    if (!method_) return;
    // A user call's request body, laid out once: every message with its prefix. Its placeholders
    // keep their length, so each call's copy only gets fresh digits.
    for (const std::string& message : method_->request_messages()) {
      append_grpc_prefix(message.size(), false, body_template_);
      body_template_.append(message);
    }
    filler_.emplace(body_template_, config.keyspace, next_placeholder_seed());
  }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    client_stream& s = take_stream(id);
    if (method_) {
      s.request.assign(body_template_);
      if (!filler_->empty()) filler_->fill(s.request);
    } else if (!raw_path_.empty()) {  // the argument is the message
      append_grpc_prefix(name.size(), false, s.request);
      s.request.append(name);
    } else {
      request_.mutable_name()->assign(name.data(), name.size());
      request_.SerializeToString(&scratch_);
      append_grpc_prefix(scratch_.size(), false, s.request);  // the record's request is empty
      s.request.append(scratch_);
    }
    s.body_size = s.request.size();
    // Every value lives in the codec (or a literal) until the stream closes: no copies.
    const auto common = grpc_request_headers(scheme_, path_, authority_);
    std::array<nghttp2_nv, request_header_count + 1> headers;
    std::copy(common.begin(), common.end(), headers.begin());
    headers.back() = static_header("grpc-timeout", timeout_);
    const std::size_t fixed = timeout_.empty() ? request_header_count : request_header_count + 1;
    if (metadata_.empty()) return submit(s, {headers.data(), fixed});
    headers_.assign(headers.begin(), headers.begin() + fixed);  // a user call's metadata after them
    for (const auto& [name, value] : metadata_) headers_.push_back(static_header(name, value));
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
    const bool many = method_ && method_->server_streaming();
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
      } else if (method_) {
        if (many) g.text.push_back(count == 1 ? '[' : ',');
        if (!method_->append_reply_json(bytes, g.text)) return {g.call, errc::wrong_reply, {}};
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

  // The largest response body taken: one message, or for a server-streaming user call up to 64.
  static std::size_t max_body(const grpc_client_config& config) {
    const std::size_t one = config.max_message_bytes + 5;
    return config.method && config.method->server_streaming() ? 64 * one : one;
  }

  std::string authority_;
  std::string_view scheme_;  // "https" under TLS, else "http"
  std::size_t max_message_;
  std::shared_ptr<const grpc_dynamic_method> method_;  // a user call's; null: the greet call
  std::string raw_path_;                               // a raw call's path ("": not raw)
  std::string_view path_;                              // :path, in method_, raw_path_ or a literal
  std::string body_template_;                          // a user call's request body
  std::optional<placeholder_filler> filler_;            // its placeholders
  std::vector<std::pair<std::string, std::string>> metadata_;  // its metadata, as sent
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
