#pragma once
// The `grpc` protocol's server codec: gRPC (doc/PROTOCOL-HTTP2.md) on our HTTP/2 server core
// (../http2/h2_server_core.hpp), serving proto/echo.proto's Echo service. Sans-IO.
//
// A request is POST /wirebench.echo.Echo/METHOD with content-type application/grpc[+proto|;...]
// (else HTTP 415 with a text body) and its messages in the body. Greet is handed out as the greet call (its name
// the argument; the reply the GreetReply's greeting); Get, Expand and Collect are answered by the
// codec itself once the request stream has ended (they are the Echo service's fixtures, not the
// measured call). Every other method is UNIMPLEMENTED. Errors are Trailers-Only responses (HTTP
// 200, grpc-status and a percent-encoded grpc-message in the one HEADERS frame): INTERNAL for a
// malformed prefix, a message protobuf cannot parse or gzip cannot inflate, or a compressed
// message without an encoding; RESOURCE_EXHAUSTED for a message over the receive limit (the
// request body's bound; inflated, the same limit); UNIMPLEMENTED, with grpc-accept-encoding, for
// a grpc-encoding other than identity and gzip. Replies are not compressed (identity is always
// allowed). A grpc-timeout sets the call's deadline: a reply encoded after it is
// DEADLINE_EXCEEDED instead.
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "grpc_status.hpp"
#include "../http2/h2_server_core.hpp"

namespace wirebench::grpc_wire {

struct grpc_server_config {
  http2::server_session_config http2;  // its max_body_bytes is set from max_message_bytes
  std::size_t max_message_bytes = 4 * 1024 * 1024;  // a longer one is RESOURCE_EXHAUSTED
};

class grpc_server_session : public http2::server_core {
 public:
  explicit grpc_server_session(const grpc_server_config& config);
  ~grpc_server_session() override;

  // The GreetReply to stream `key`'s Greet call, then grpc-status 0; ok false: UNKNOWN with
  // `body` as the message. Nothing if the client has reset the stream since.
  void encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue& out) override;

 private:
  struct grpc_stream;  // the record: server_stream and the gRPC headers
  struct messages;     // protobuf messages reused by every call
  std::unique_ptr<http2::server_stream> make_stream() override;
  void request_header(http2::server_stream& st, std::string_view name,
                      std::string_view value) override;
  void request_ended(std::int32_t stream_id, http2::server_stream& st) override;
  void body_too_large(std::int32_t stream_id, http2::server_stream& st) override;

  // The bytes of a message as received, inflated when compressed (into inflated_); false with
  // `code` and `why` set when it cannot be had.
  bool message_bytes(const grpc_stream& st, bool compressed, std::span<const std::byte> bytes,
                     std::string_view& message, status_code& code, std::string& why);
  // Answers the request on its own (Echo's fixtures); false with `why` set when it cannot.
  bool answer_echo(std::string_view method, grpc_stream& st, status_code& code, std::string& why);
  // Appends one message (5-byte prefix, then `bytes`) to the stream's response.
  void append_message(grpc_stream& st, std::string_view bytes);
  // HEADERS, the response's messages, then the trailers with grpc-status 0.
  void respond_ok(std::int32_t stream_id, grpc_stream& st);
  // Trailers-Only: one HEADERS frame with the status (and `message`, percent-encoded).
  // With `accept_encodings`: grpc-accept-encoding too (after an encoding it lacks).
  void respond_error(std::int32_t stream_id, grpc_stream& st, status_code code,
                     std::string_view message, int http_status = 200,
                     bool accept_encodings = false);

  std::size_t max_message_;
  std::unique_ptr<messages> messages_;
  std::string scratch_;   // a message serialized, before its prefix (capacity kept)
  std::string inflated_;  // a compressed message, inflated
};

}  // namespace wirebench::grpc_wire
