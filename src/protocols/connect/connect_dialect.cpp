// The Connect protocol as a dialect of the gRPC server session (../grpc/rpc_dialect.hpp), so that
// the one server answers Connect beside gRPC, as connect-go's handlers do:
// - unary calls (Greet, Get): POST, content-type application/proto or application/json, the bare
//   message as the body, Content-Encoding gzip or identity; the reply bare with status 200, an
//   error as the HTTP status of its code with the JSON {"code","message"};
// - streaming calls (Expand, Collect, Update, the greet streams): application/connect+proto or
//   +json, every message enveloped (flag 0x01 compressed, Connect-Content-Encoding), the response
//   always 200 and ended by an EndStreamResponse envelope (flag 0x02): {} or {"error":{...}};
// - Connect-Timeout-Ms (1 to 10 digits) as the call's deadline, Connect-Protocol-Version 1 when
//   sent (another version is refused with 400).
// - GET for a unary method with no side effects (Greet, Get), its message in the query
//   (connect_get.hpp), answered as a POST is; 405 for any other method.
// A unary content type on a streaming method, or the reverse, is 415, as connect-go answers.
#include "connect_get.hpp"
#include "connect_wire.hpp"
#include "../grpc/rpc_dialect.hpp"

namespace wirebench::connect {
namespace {

using grpc_wire::rpc_call;
using grpc_wire::rpc_request;
using grpc_wire::rpc_response_head;

class connect_dialect final : public grpc_wire::rpc_dialect {
 public:
  std::string_view name() const override { return "connect"; }
  std::span<const std::string_view> headers_read() const override {
    static constexpr std::string_view names[] = {"connect-protocol-version", "connect-timeout-ms",
                                                 "content-encoding", "connect-content-encoding"};
    return names;
  }
  bool serves(const rpc_request& r) const override {
    return parse_content_type(r.content_type).has_value() || is_get(r);
  }

  status_code accept(const rpc_request& r, bool streaming, rpc_call& call,
                     std::string& why) const override {
    if (is_get(r)) return accept_get(r, streaming, call, why);
    const content_type_info type = *parse_content_type(r.content_type);
    call.format = type.format;
    call.bare = !type.streaming;
    if (r.method != "POST") {
      call.refusal_status = 405;
      why = "Connect calls are POST";
      return status_code::unimplemented;
    }
    if (type.streaming != streaming) {
      call.refusal_status = 415;
      why = streaming ? "a streaming method takes application/connect+proto or +json"
                      : "a unary method takes application/proto or application/json";
      return status_code::unknown;
    }
    static const std::size_t unary_encoding_slot = grpc_wire::header_slot("content-encoding");
    static const std::size_t stream_encoding_slot = grpc_wire::header_slot("connect-content-encoding");
    if (const status_code code = accept_headers(r, call, why); code != status_code::ok) return code;
    const std::string_view encoding = r.header(type.streaming ? stream_encoding_slot : unary_encoding_slot);
    if (!grpc_wire::is_known_encoding(encoding)) {
      why = "content encoding " + std::string(encoding) + " is not supported; supported: gzip, identity";
      return status_code::unimplemented;
    }
    call.gzip = encoding == "gzip";
    return status_code::ok;
  }

  // A GET: no content type, the call in the query. Only a unary method with no side effects.
  static bool is_get(const rpc_request& r) {
    return r.method == "GET" && r.content_type.empty() && is_get_query(r.path);
  }
  static status_code accept_get(const rpc_request& r, bool streaming, rpc_call& call, std::string& why) {
    call.bare = true;
    if (streaming || !r.side_effect_free) {
      call.refusal_status = 405;
      why = streaming ? "a streaming method is not called with GET" : "the method has side effects: POST it";
      return status_code::unimplemented;
    }
    get_query query;
    if (const status_code code = parse_get_query(r.path, query, call.refusal_status, why); code != status_code::ok)
      return code;
    call.format = query.format;
    call.gzip = query.gzip;
    call.from_query = true;
    call.query_message = std::move(query.message);
    return accept_headers(r, call, why);
  }

  // What a POST and a GET share: Connect-Protocol-Version and Connect-Timeout-Ms.
  static status_code accept_headers(const rpc_request& r, rpc_call& call, std::string& why) {
    static const std::size_t version_slot = grpc_wire::header_slot("connect-protocol-version");
    static const std::size_t timeout_slot = grpc_wire::header_slot("connect-timeout-ms");
    if (const std::string_view version = r.header(version_slot);
        !version.empty() && version != "1") {
      why = "connect-protocol-version must be 1";
      return status_code::invalid_argument;
    }
    if (const std::string_view timeout = r.header(timeout_slot); !timeout.empty()) {
      const auto ms = parse_timeout_ms(timeout);
      if (!ms) {
        why = "connect-timeout-ms must be 1 to 10 digits";
        return status_code::invalid_argument;
      }
      call.timeout = *ms;
    }
    return status_code::ok;
  }

  std::string_view encoding_header(const rpc_call& call) const override {
    return call.bare ? "content-encoding" : "connect-content-encoding";
  }

  void open(const rpc_request&, const rpc_call& call, rpc_response_head& head) const override {
    head.status = 200;
    head.content_type = content_type_of(!call.bare, call.format);
  }

  void append_message(const rpc_call& call, std::string_view message, std::string& body) const override {
    if (call.bare) body.append(message);
    else append_envelope(body, 0, message);
  }

  void finish(const rpc_request&, const rpc_call& call, status_code code, std::string_view message,
              bool opened, rpc_response_head& head, std::string& body,
              std::vector<std::pair<std::string_view, std::string>>&) const override {
    if (opened && call.bare) return;  // a unary reply is its message: nothing follows it
    if (!opened && (call.bare || call.refusal_status != 0)) {  // a unary error: status and JSON
      head.status = call.refusal_status != 0 ? call.refusal_status : http_status_of(code);
      head.content_type = "application/json";
      body.clear();
      append_error_json(body, code, message);
      return;
    }
    if (!opened) {  // a stream failed before its first message: still 200, the error at its end
      head.status = 200;
      head.content_type = content_type_of(true, call.format);
      body.clear();
    }
    std::string end;
    append_end_stream_json(end, code, message);
    append_envelope(body, flag_end_stream, end);
  }
};

const connect_dialect dialect;
const grpc_wire::rpc_dialect_registration connect_dialect_registration{dialect};

}  // namespace
}  // namespace wirebench::connect
