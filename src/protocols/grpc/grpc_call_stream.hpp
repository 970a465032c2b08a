#pragma once
// A gRPC call's HTTP/2 stream on the client (the record of ../http2/h2_client_core.hpp), with
// what the response's headers and trailers said of gRPC. Shared by the unary client codec and
// the stream client codec.
#include <optional>
#include <string>
#include <string_view>

#include "grpc_status.hpp"
#include "../http2/h2_client_core.hpp"

namespace wirebench::grpc_wire {

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
