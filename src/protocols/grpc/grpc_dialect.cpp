// gRPC's own wire (doc/PROTOCOL-HTTP2.md) as a dialect of the server session: content-type
// application/grpc[+proto|;...], or +json for protobuf's JSON mapping (connect-go's and grpc-go's
// JSON codec; the reply then says +json too), POST only, grpc-timeout, grpc-encoding identity or
// gzip, every message enveloped; a response's status in its HTTP/2 trailers, or alone in its
// headers (Trailers-Only) when it fails before any message.
#include "grpc_message.hpp"
#include "grpc_timeout.hpp"
#include "rpc_dialect.hpp"

namespace wirebench::grpc_wire {
namespace {

constexpr std::string_view grpc_type = "application/grpc";

// application/grpc, alone or followed by +proto (or another message format) or ;parameters.
// (application/grpc-web is not: the '-' is neither.)
bool is_grpc_content_type(std::string_view type) {
  if (type.substr(0, grpc_type.size()) != grpc_type) return false;
  return type.size() == grpc_type.size() || type[grpc_type.size()] == '+' || type[grpc_type.size()] == ';';
}

std::string_view content_type_of(const rpc_call& call) {
  return call.format == message_format::json ? "application/grpc+json" : grpc_type;
}

std::size_t encoding_slot() {
  static const std::size_t slot = header_slot("grpc-encoding");
  return slot;
}

class grpc_wire_dialect final : public rpc_dialect {
 public:
  std::string_view name() const override { return "grpc"; }
  std::span<const std::string_view> headers_read() const override {
    static constexpr std::string_view names[] = {"grpc-timeout", "grpc-encoding"};
    return names;
  }
  bool serves(const rpc_request& r) const override { return is_grpc_content_type(r.content_type); }

  status_code accept(const rpc_request& r, bool, rpc_call& call, std::string& why) const override {
    if (r.method != "POST") {
      call.refusal_status = 405;
      why = "gRPC is POST only";
      return status_code::unimplemented;
    }
    static const std::size_t timeout_slot = header_slot("grpc-timeout");
    if (const std::string_view timeout = r.header(timeout_slot); !timeout.empty()) {
      call.timeout = parse_timeout(timeout);
      if (!call.timeout) {
        why = "malformed grpc-timeout";
        return status_code::internal;
      }
    }
    const std::string_view encoding = r.header(encoding_slot());
    if (!is_known_encoding(encoding)) {
      why = "grpc-encoding not supported: " + std::string(encoding);
      return status_code::unimplemented;
    }
    call.gzip = encoding == "gzip";
    if (r.content_type.substr(grpc_type.size()).starts_with("+json")) call.format = message_format::json;
    return status_code::ok;
  }

  std::string_view encoding_header(const rpc_call&) const override { return "grpc-encoding"; }

  void open(const rpc_request&, const rpc_call& call, rpc_response_head& head) const override {
    head.status = 200;
    head.content_type = content_type_of(call);
  }

  void append_message(const rpc_call&, std::string_view message, std::string& body) const override {
    append_grpc_prefix(message.size(), false, body);
    body.append(message);
  }

  void finish(const rpc_request& r, const rpc_call& call, status_code code, std::string_view message,
              bool opened, rpc_response_head& head, std::string& body,
              std::vector<std::pair<std::string_view, std::string>>& trailers) const override {
    auto& to = opened ? trailers : head.headers;
    if (!opened) {  // Trailers-Only: the status in the one HEADERS frame
      head.status = call.refusal_status != 0 ? call.refusal_status : 200;
      head.content_type = content_type_of(call);
      body.clear();
    }
    to.emplace_back("grpc-status", code == status_code::ok ? std::string("0")
                                                           : std::to_string(static_cast<int>(code)));
    if (!message.empty()) {
      std::string encoded;
      append_percent_encoded(encoded, message);
      to.emplace_back("grpc-message", std::move(encoded));
    }
    // After an encoding it lacks, the ones it has (doc/compression.md).
    if (!opened && !is_known_encoding(r.header(encoding_slot())))
      to.emplace_back("grpc-accept-encoding", "identity,gzip");
  }
};

}  // namespace

const rpc_dialect& grpc_dialect() {
  static const grpc_wire_dialect instance;
  return instance;
}

}  // namespace wirebench::grpc_wire
