// gRPC-Web's wire for the RPC client codec (../grpc/rpc_client_wire.hpp), binary (`grpc-web`) or
// text (`grpc-web-text`: the body in base64, as browsers' grpc-web clients send it through a
// proxy such as Envoy): content-type application/grpc-web[-text]+proto, x-grpc-web: 1,
// grpc-accept-encoding identity and gzip, grpc-timeout, messages enveloped; the status in a trailers frame at the end of the body
// (flag 0x80; 0x81 gzip-compressed, as connect-go sends it when asked for gzip), or in the
// headers of a Trailers-Only response. A gRPC-Web error is an HTTP 200 with the status in the body:
// a tool that counts HTTP statuses (h2load) would count it a success; this one does not. A failed
// call counts as gRPC's status_NAME, for it is gRPC's status.
#include "grpc_web_wire.hpp"
#include "../grpc/rpc_client_wire.hpp"
#include "../http/base64.hpp"
#include "../http2/h2_util.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_web {
namespace {

using grpc_wire::rpc_outcome;
using http2::static_header;

// A trailers frame's block is a few short lines; a longer one is refused whole.
constexpr std::size_t max_trailers_bytes = 16 * 1024;

class grpc_web_client_wire final : public grpc_wire::grpc_family_client_wire {
 public:
  explicit grpc_web_client_wire(bool text) : text_(text) {}
  std::string_view name() const override { return text_ ? "grpc-web-text" : "grpc-web"; }
  std::string_view summary() const override {
    return text_ ? "gRPC-Web unary Echo.Greet, the body in base64 (application/grpc-web-text+proto, "
                   "as browsers send it)"
                 : "gRPC-Web unary Echo.Greet (application/grpc-web+proto, the status in a trailers frame)";
  }

  void request_headers(bool, message_format format, std::string_view timeout,
                       std::vector<nghttp2_nv>& out) const override {
    out.push_back(static_header("content-type", content_type_of({.text = text_, .format = format})));
    // grpc-web's JavaScript client asks for the same encoding back.
    if (text_) out.push_back(static_header("accept", "application/grpc-web-text"));
    out.push_back(static_header("x-grpc-web", "1"));
    out.push_back(static_header("x-user-agent", "wirebench-grpc-web"));
    out.push_back(static_header("grpc-accept-encoding", "identity,gzip"));
    if (!timeout.empty()) out.push_back(static_header("grpc-timeout", timeout));
  }

  // Text: the whole body in base64, padded (one group of frames, as grpc-web's client sends it).
  void wrap_body(std::string& body, std::string& scratch) const override {
    if (!text_) return;
    scratch.clear();
    http::append_base64(scratch, body);
    body.swap(scratch);
  }
  std::size_t wrapped_size(std::size_t bytes) const override {
    return text_ ? (bytes + 2) / 3 * 4 : bytes;
  }
  // Text: each frame may come padded on its own (Envoy's grpc_web filter, our server): the
  // decoder begins a new group after padding. The body is decoded whole when it has come.
  std::optional<std::string_view> unwrap_body(std::string_view body, std::string& scratch) const override {
    if (!text_) return body;
    scratch.clear();
    if (!http::decode_base64(body, scratch)) return std::nullopt;
    return std::string_view(scratch);
  }

  rpc_outcome read_response(const grpc_wire::rpc_response& r, bool, std::size_t max_message,
                            grpc_wire::message_sink& messages) const override {
    if (auto first = grpc_wire::grpc_status_first(r)) return std::move(*first);
    // The messages, then the trailers frame, then nothing.
    return grpc_wire::read_enveloped(r, flag_trailers, max_message, max_trailers_bytes, messages,
                                     [this](std::string_view block) { return read_end(block); });
  }

  std::uint8_t end_flag() const override { return flag_trailers; }
  rpc_outcome read_end(std::string_view block) const override {
    const auto status = parse_trailers_block(block);
    if (!status || !status->status) return grpc_wire::wrong_reply_outcome("no grpc-status in the trailers");
    return {*status->status, grpc_wire::percent_decoded(status->message), {}};
  }

 private:
  bool text_;
};

}  // namespace

const grpc_wire::rpc_client_wire& client_wire(bool text) {
  static const grpc_web_client_wire binary{false}, base64{true};
  return text ? base64 : binary;
}

}  // namespace wirebench::grpc_web
