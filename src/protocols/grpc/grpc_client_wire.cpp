// gRPC's own wire for the RPC client codec (rpc_client_wire.hpp, doc/PROTOCOL-HTTP2.md):
// content-type application/grpc (+json in JSON), te: trailers, grpc-accept-encoding identity and
// gzip, grpc-timeout; every message enveloped; the status in the HTTP/2 trailers, or alone in the
// headers (Trailers-Only).
#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "grpc_timeout.hpp"
#include "rpc_client_wire.hpp"
#include "../http2/h2_util.hpp"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/core/status_error.hpp"

namespace wirebench::grpc_wire {
namespace {

using http2::static_header;

rpc_outcome wrong(std::string why) { return wrong_reply_outcome(std::move(why)); }

class grpc_wire_client final : public grpc_family_client_wire {
 public:
  std::string_view name() const override { return "grpc"; }
  std::string_view summary() const override { return "gRPC unary Echo.Greet"; }

  void request_headers(bool, message_format format, std::string_view timeout,
                       std::vector<nghttp2_nv>& out) const override {
    out.push_back(static_header("content-type", format == message_format::json ? "application/grpc+json"
                                                                                : "application/grpc"));
    out.push_back(static_header("te", "trailers"));
    out.push_back(static_header("user-agent", "wirebench-grpc"));
    out.push_back(static_header("grpc-accept-encoding", "identity,gzip"));
    if (!timeout.empty()) out.push_back(static_header("grpc-timeout", timeout));
  }

  rpc_outcome read_response(const rpc_response& r, bool, std::size_t max_message,
                            message_sink& messages) const override {
    if (auto first = grpc_status_first(r)) return std::move(*first);
    if (!r.header_status) return wrong("no grpc-status");
    grpc_message_decoder decoder(max_message);
    const std::span<const std::byte> body = as_bytes(r.body);
    std::size_t consumed = 0;
    for (;;) {
      const auto step = decoder.decode(body.subspan(consumed));
      if (step.status == decode_status::need_more) break;
      if (step.status != decode_status::frame) return wrong({});
      consumed += step.consumed;
      if (!messages.take(as_text(step.frame.bytes), step.frame.compressed)) return wrong({});
    }
    if (consumed != body.size()) return wrong({});
    return {};
  }
};

}  // namespace

rpc_outcome rpc_client_wire::read_end(std::string_view) const {
  return wrong("an end envelope, which this protocol has not");
}

std::string grpc_family_client_wire::format_timeout(std::chrono::nanoseconds timeout) const {
  return grpc_wire::format_timeout(timeout);
}

int grpc_family_client_wire::response_header_slot(std::string_view name) const {
  if (name == "grpc-encoding") return 0;
  if (name == "grpc-status") return 1;
  if (name == "grpc-message") return 2;
  return -1;
}

std::optional<rpc_outcome> grpc_status_first(const rpc_response& r) {
  // A gRPC status wins over the HTTP one (a server may send both, as ours does with 415).
  if (r.header_status && *r.header_status != status_code::ok)
    return rpc_outcome{*r.header_status, percent_decoded(r.header_message), {}};
  if (r.http_status == 200) return std::nullopt;
  std::string why = std::to_string(r.http_status) + " " + std::string(r.body.substr(0, 200));
  return rpc_outcome{status_code::unknown, std::move(why), unexpected_status(r.http_status)};
}

rpc_outcome read_enveloped(const rpc_response& r, std::uint8_t end_flag, std::size_t max_message,
                           std::size_t max_end, message_sink& messages,
                           const std::function<rpc_outcome(std::string_view)>& end) {
  grpc_message_decoder decoder(max_message);
  std::string_view body = r.body;
  while (body.size() >= 5) {
    const auto flags = static_cast<std::uint8_t>(body[0]);
    if (flags & end_flag) {
      const std::uint32_t n = static_cast<std::uint8_t>(body[1]) << 24 | static_cast<std::uint8_t>(body[2]) << 16 |
                              static_cast<std::uint8_t>(body[3]) << 8 | static_cast<std::uint8_t>(body[4]);
      if (body.size() - 5 != n) return wrong("bytes after the end of the body's envelopes, or too few");
      std::string_view last = body.substr(5);
      std::string inflated;
      if (flags & 0x01) {  // compressed like the messages (connect-go's server does, asked for gzip)
        if (r.encoding != "gzip" || gunzip(as_bytes(last), max_end, inflated))
          return wrong("a compressed end that cannot be inflated");
        last = inflated;
      }
      return end(last);
    }
    const auto step = decoder.decode(as_bytes(body));  // a message: its flag 0 or 1
    if (step.status != decode_status::frame) return wrong("a malformed envelope");
    if (!messages.take(as_text(step.frame.bytes), step.frame.compressed)) return wrong({});
    body.remove_prefix(step.consumed);
  }
  return wrong(body.empty() ? "the body does not end with its end envelope" : "the body ends inside an envelope");
}

const rpc_client_wire& grpc_client_wire() {
  static const grpc_wire_client instance;
  return instance;
}

}  // namespace wirebench::grpc_wire
