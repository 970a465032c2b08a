// gRPC-Web (grpc/grpc doc/PROTOCOL-WEB.md) as a dialect of the gRPC server session
// (../grpc/rpc_dialect.hpp), so that the one server answers it beside gRPC and Connect, as
// connect-go's handlers and Envoy's grpc_web filter do: content-type application/grpc-web[+proto|
// +json] or application/grpc-web-text (the body base64, in groups of four characters: each
// padded chunk of a stream decodes as it comes), POST, grpc-timeout, grpc-encoding, every message
// enveloped as gRPC's; the response's status not in HTTP trailers but in a trailers frame (flag
// 0x80) at the end of the body, or, when it fails before any message, in its headers
// (Trailers-Only). A text response encodes each frame on its own, padded.
#include "grpc_web_wire.hpp"
#include "../grpc/grpc_message.hpp"
#include "../grpc/grpc_timeout.hpp"
#include "../http/base64.hpp"

namespace wirebench::grpc_web {
namespace {

using grpc_wire::rpc_call;
using grpc_wire::rpc_request;
using grpc_wire::rpc_response_head;

// What the request's content type says (serves() has checked that it is gRPC-Web's).
content_type_info info_of(const rpc_request& r) { return *parse_content_type(r.content_type); }

class grpc_web_dialect final : public grpc_wire::rpc_dialect {
 public:
  std::string_view name() const override { return "grpc-web"; }
  std::span<const std::string_view> headers_read() const override {
    static constexpr std::string_view names[] = {"grpc-timeout", "grpc-encoding"};
    return names;
  }
  bool serves(const rpc_request& r) const override {
    const auto type = parse_content_type(r.content_type);
    return type && type->text == text_;
  }

  status_code accept(const rpc_request& r, bool, rpc_call& call, std::string& why) const override {
    call.format = info_of(r).format;
    if (r.method != "POST") {
      call.refusal_status = 405;
      why = "gRPC-Web is POST only";
      return status_code::unimplemented;
    }
    static const std::size_t timeout_slot = grpc_wire::header_slot("grpc-timeout");
    static const std::size_t encoding_slot = grpc_wire::header_slot("grpc-encoding");
    if (const std::string_view timeout = r.header(timeout_slot); !timeout.empty()) {
      call.timeout = grpc_wire::parse_timeout(timeout);
      if (!call.timeout) {
        why = "malformed grpc-timeout";
        return status_code::internal;
      }
    }
    const std::string_view encoding = r.header(encoding_slot);
    if (!grpc_wire::is_known_encoding(encoding)) {
      why = "grpc-encoding not supported: " + std::string(encoding);
      return status_code::unimplemented;
    }
    call.gzip = encoding == "gzip";
    return status_code::ok;
  }

  // Text: whole groups of four characters are decoded as they come (a group is complete in
  // itself, padded or not), the rest waits in `pending` for the next bytes.
  bool unwrap(std::string_view bytes, std::string& pending, std::string& scratch,
              std::string_view& out) const override {
    if (!text_) {
      out = bytes;
      return true;
    }
    pending.append(bytes);
    const std::size_t whole = pending.size() / 4 * 4;
    scratch.clear();
    if (!http::decode_base64(std::string_view(pending).substr(0, whole), scratch)) return false;
    pending.erase(0, whole);
    out = scratch;
    return true;
  }

  std::string_view encoding_header(const rpc_call&) const override { return "grpc-encoding"; }

  void open(const rpc_request& r, const rpc_call&, rpc_response_head& head) const override {
    head.status = 200;
    head.content_type = content_type_of(info_of(r));
  }

  void append_message(const rpc_call&, std::string_view message, std::string& body) const override {
    if (!text_) {
      grpc_wire::append_grpc_prefix(message.size(), false, body);
      body.append(message);
      return;
    }
    std::string frame;
    grpc_wire::append_grpc_prefix(message.size(), false, frame);
    frame.append(message);
    http::append_base64(body, frame);
  }

  void finish(const rpc_request& r, const rpc_call& call, status_code code, std::string_view message,
              bool opened, rpc_response_head& head, std::string& body,
              std::vector<std::pair<std::string_view, std::string>>&) const override {
    if (!opened) {  // Trailers-Only: the status in the headers, no body
      head.status = call.refusal_status != 0 ? call.refusal_status : 200;
      head.content_type = content_type_of(info_of(r));
      body.clear();
      head.headers.emplace_back("grpc-status", std::to_string(static_cast<int>(code)));
      if (!message.empty()) {
        std::string encoded;
        grpc_wire::append_percent_encoded(encoded, message);
        head.headers.emplace_back("grpc-message", std::move(encoded));
      }
      return;
    }
    if (!text_) return append_trailers_frame(body, code, message);
    std::string frame;
    append_trailers_frame(frame, code, message);
    http::append_base64(body, frame);
  }

  explicit grpc_web_dialect(bool text) : text_(text) {}

 private:
  bool text_;
};

// One instance for each body encoding, each serving its own content types: a dialect is chosen
// per request, and how its body is unwrapped follows.
const grpc_web_dialect binary{false}, text{true};
const grpc_wire::rpc_dialect_registration binary_registration{binary}, text_registration{text};

}  // namespace
}  // namespace wirebench::grpc_web
