// gRPC-Web's wire for the RPC client codec (../grpc/rpc_client_wire.hpp, binary): content-type
// application/grpc-web+proto (+json in JSON), x-grpc-web: 1, grpc-accept-encoding identity and
// gzip, grpc-timeout, messages enveloped; the status in a trailers frame at the end of the body
// (flag 0x80; 0x81 gzip-compressed, as connect-go sends it when asked for gzip), or in the
// headers of a Trailers-Only response. A gRPC-Web error is an HTTP 200 with the status in the body:
// a tool that counts HTTP statuses (h2load) would count it a success; this one does not. A failed
// call counts as gRPC's status_NAME, for it is gRPC's status.
#include "grpc_web_wire.hpp"
#include "../grpc/rpc_client_wire.hpp"
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
  std::string_view name() const override { return "grpc-web"; }
  std::string_view summary() const override {
    return "gRPC-Web unary Echo.Greet (application/grpc-web+proto, the status in a trailers frame)";
  }

  void request_headers(bool, message_format format, std::string_view timeout,
                       std::vector<nghttp2_nv>& out) const override {
    out.push_back(static_header("content-type", content_type_of({.format = format})));
    out.push_back(static_header("x-grpc-web", "1"));
    out.push_back(static_header("x-user-agent", "wirebench-grpc-web"));
    out.push_back(static_header("grpc-accept-encoding", "identity,gzip"));
    if (!timeout.empty()) out.push_back(static_header("grpc-timeout", timeout));
  }

  rpc_outcome read_response(const grpc_wire::rpc_response& r, bool, std::size_t max_message,
                            grpc_wire::message_sink& messages) const override {
    if (auto first = grpc_wire::grpc_status_first(r)) return std::move(*first);
    // The messages, then the trailers frame, then nothing.
    return grpc_wire::read_enveloped(r, flag_trailers, max_message, max_trailers_bytes, messages,
                                     [](std::string_view block) -> rpc_outcome {
                                       const auto status = parse_trailers_block(block);
                                       if (!status || !status->status)
                                         return grpc_wire::wrong_reply_outcome("no grpc-status in the trailers");
                                       return {*status->status, grpc_wire::percent_decoded(status->message), {}};
                                     });
  }
};

}  // namespace

const grpc_wire::rpc_client_wire& client_wire() {
  static const grpc_web_client_wire instance;
  return instance;
}

}  // namespace wirebench::grpc_web
