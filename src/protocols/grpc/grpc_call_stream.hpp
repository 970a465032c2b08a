#pragma once
// The one stream of the stream client codecs (grpc-stream, grpc-batch, connect-stream: the record
// of ../http2/h2_client_core.hpp), with what its response said of the call's status: in HTTP/2
// trailers (gRPC) or in the end envelope of its body (Connect's end of stream), each where its
// wire (rpc_client_wire.hpp) reads it.
#include <optional>
#include <string>
#include <string_view>

#include "grpc_status.hpp"
#include "rpc_client_wire.hpp"
#include "../http2/h2_client_core.hpp"

namespace wirebench::grpc_wire {

struct grpc_call_stream : http2::client_stream {
  void reset() override {
    client_stream::reset();
    trailer_status.reset();
    message.clear();
    encoding.clear();
    end.reset();
  }
  // A response header or trailer (from the codec's response_header()), kept as `wire` reads it.
  void read_header(const rpc_client_wire& wire, std::string_view name, std::string_view value) {
    switch (wire.response_header_slot(name)) {
      case 0: encoding = value; break;
      // Not a number: a status the peer did not send (UNKNOWN, as grpc's clients read it).
      case 1: trailer_status = parse_status(value).value_or(status_code::unknown); break;
      case 2: message = value; break;
      default: break;
    }
  }
  std::optional<status_code> trailer_status;  // grpc-status, from the trailers (or Trailers-Only)
  std::string message;                        // grpc-message, as sent (percent-encoded)
  std::string encoding;                       // the messages' compression, as the wire's header says
  std::optional<rpc_outcome> end;             // the body's end envelope, read: nothing may follow it
};

}  // namespace wirebench::grpc_wire
