// The Connect protocol's wire for the RPC client codec (../grpc/rpc_client_wire.hpp), in protobuf's
// binary form (`connect`) or in JSON (`connect-json`, the codec connect-go's WithProtoJSON picks):
// - unary calls: content-type application/proto (or application/json), the one request message
//   bare, connect-protocol-version 1, connect-timeout-ms, accept-encoding gzip; the reply bare
//   with 200 (content-encoding gzip inflated), an error as a non-200 status with the JSON
//   {"code","message"}, or, when the body is none, the code the spec infers from the status;
// - streaming calls: application/connect+proto (or +json), messages enveloped,
//   connect-accept-encoding gzip; the response 200, its messages then an end-of-stream envelope
//   (flag 0x02) whose JSON says the status.
// A failed call counts as connect_NAME.
#include "connect_wire.hpp"
#include "../grpc/grpc_gzip.hpp"
#include "../grpc/rpc_client_wire.hpp"
#include "../http2/h2_util.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::connect {
namespace {

using grpc_wire::message_sink;
using grpc_wire::rpc_outcome;
using grpc_wire::rpc_response;
using http2::static_header;

rpc_outcome wrong(std::string why) { return grpc_wire::wrong_reply_outcome(std::move(why)); }

class connect_client_wire final : public grpc_wire::rpc_client_wire {
 public:
  explicit connect_client_wire(message_format format) : format_(format) {}
  std::string_view name() const override { return json() ? "connect-json" : "connect"; }
  std::string_view summary() const override {
    return json() ? "Connect unary Echo.Greet in JSON (application/json)"
                  : "Connect unary Echo.Greet (application/proto)";
  }
  message_format format() const override { return format_; }

  void request_headers(bool streaming, message_format format, std::string_view timeout,
                       std::vector<nghttp2_nv>& out) const override {
    out.push_back(static_header("content-type", content_type_of(streaming, format)));
    out.push_back(static_header("connect-protocol-version", "1"));
    out.push_back(static_header("user-agent", "wirebench-connect"));
    out.push_back(static_header(streaming ? "connect-accept-encoding" : "accept-encoding", "gzip"));
    if (!timeout.empty()) out.push_back(static_header("connect-timeout-ms", timeout));
  }

  std::string format_timeout(std::chrono::nanoseconds timeout) const override {
    return format_timeout_ms(timeout);
  }

  bool bare(bool streaming) const override { return !streaming; }

  int response_header_slot(std::string_view name) const override {
    // A unary response's content-encoding, a stream's connect-content-encoding: the one the
    // response has is the one that applies.
    return name == "content-encoding" || name == "connect-content-encoding" ? 0 : -1;
  }

  rpc_outcome read_response(const rpc_response& r, bool streaming, std::size_t max_message,
                            message_sink& messages) const override {
    const auto type = parse_content_type(r.content_type);
    // A stream's response is 200; one refused outright (a bidirectional stream over HTTP/1.1:
    // 505) says why as a unary error does, or by its status.
    if (!streaming || r.http_status != 200) return read_unary(r, type, max_message, messages);
    if (!type || !type->streaming) return wrong("a stream's reply of another content type");
    // Envelopes: messages, then the end of stream, then nothing.
    return grpc_wire::read_enveloped(r, flag_end_stream, max_message, max_message, messages,
                                     [this](std::string_view json) { return read_end(json); });
  }

  std::uint8_t end_flag() const override { return flag_end_stream; }
  rpc_outcome read_end(std::string_view json) const override {
    const auto end = parse_end_stream_json(json);
    if (!end) return wrong("an end of stream that is not an EndStreamResponse");
    return {end->code, end->message, {}};
  }

  std::error_code failed(status_code code) const override { return connect_error(code); }

 private:
  bool json() const { return format_ == message_format::json; }

  static rpc_outcome read_unary(const rpc_response& r, const std::optional<content_type_info>& type,
                                std::size_t max_message, message_sink& messages) {
    if (r.http_status != 200) {
      // The error's JSON (maybe gzipped, as its content-encoding says), or the inferred code.
      std::string_view body = r.body;
      std::string inflated;
      if (!body.empty() && r.encoding == "gzip" && !grpc_wire::gunzip(as_bytes(body), max_message, inflated))
        body = inflated;
      const auto error = r.content_type.starts_with("application/json") ? parse_error_json(body) : std::nullopt;
      if (error) return {error->code, error->message, {}};
      return {code_of_http_status(r.http_status), "HTTP " + std::to_string(r.http_status), {}};
    }
    if (!type || type->streaming) return wrong("a reply of another content type");
    if (!r.encoding.empty() && r.encoding != "identity" && r.encoding != "gzip")
      return wrong("a body in an encoding not asked for");
    // The codec inflates a compressed message (an empty body is not compressed: nothing to inflate).
    if (!messages.take(r.body, r.encoding == "gzip" && !r.body.empty())) return wrong({});
    return {};
  }

  message_format format_;
};

}  // namespace

const grpc_wire::rpc_client_wire& client_wire(message_format format) {
  static const connect_client_wire proto{message_format::proto}, json{message_format::json};
  return format == message_format::json ? json : proto;
}

}  // namespace wirebench::connect
