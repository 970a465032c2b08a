#pragma once
// A gRPC call's HTTP/2 stream on the client (the record of ../http2/h2_client_core.hpp), with
// what the response's headers and trailers said of gRPC. Shared by the unary client codec and
// the stream client codec.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "grpc_status.hpp"
#include "../http2/h2_client_core.hpp"

namespace wirebench::grpc_wire {

// The headers every gRPC request of our clients starts with (the values must outlive the stream:
// nghttp2 references them); the unary codec adds grpc-timeout, a user call its metadata.
inline constexpr std::size_t request_header_count = 8;
inline std::array<nghttp2_nv, request_header_count> grpc_request_headers(
    std::string_view scheme, std::string_view path, std::string_view authority) {
  using http2::static_header;
  return {static_header(":method", "POST"),
          static_header(":scheme", scheme),
          static_header(":path", path),
          static_header(":authority", authority),
          static_header("content-type", "application/grpc"),
          static_header("te", "trailers"),
          static_header("user-agent", "wirebench-grpc"),
          static_header("grpc-accept-encoding", "identity,gzip")};
}

struct grpc_call_stream : http2::client_stream {
  void reset() override {
    client_stream::reset();
    grpc_status.reset();
    message.clear();
    encoding.clear();
  }
  // A response header or trailer (from the codec's response_header()).
  void read_header(std::string_view name, std::string_view value) {
    if (name == "grpc-status") {
      // Not a number: a status the peer did not send (UNKNOWN, as grpc's clients read it).
      grpc_status = parse_status(value).value_or(status_code::unknown);
    } else if (name == "grpc-message") {
      message = value;
    } else if (name == "grpc-encoding") {
      encoding = value;
    }
  }
  std::optional<status_code> grpc_status;  // grpc-status, from the trailers (or Trailers-Only)
  std::string message;                     // grpc-message, as sent
  std::string encoding;                    // grpc-encoding
};

}  // namespace wirebench::grpc_wire
