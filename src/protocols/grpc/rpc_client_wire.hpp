#pragma once
// How a unary or streaming call of the RPC client codec (grpc_client_codec.hpp) is written on
// HTTP/2 and how its response is read, for each protocol that carries gRPC's calls: gRPC's own
// (grpc_client_wire.cpp), Connect's and gRPC-Web's (their folders). The codec keeps what they
// share (the greet call, user calls from a .proto or reflection, mixes, placeholders, metadata,
// gzip, the reply in JSON); the wire, what differs: the request's headers and framing, and where
// the response's messages and status are. The client-side mirror of rpc_dialect.hpp. Sans-IO.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <nghttp2/nghttp2.h>

#include "grpc_status.hpp"
#include "rpc_dialect.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_wire {

/// What a call's response said, as the codec's stream record kept it.
struct rpc_response {
  int http_status = 0;
  std::string_view content_type;
  std::string_view encoding;  // the header the wire names for the response's compression
  std::optional<status_code> header_status;  // a status in the headers or HTTP trailers
  std::string_view header_message;           // its message, as sent
  std::string_view body;
};

/// Takes a response's reply messages one by one (the codec's: it inflates, counts and reads them).
class message_sink {
 public:
  /// `bytes` a view into the body, valid during the call; false stops the reading (the response
  /// is then the codec's wrong_reply).
  virtual bool take(std::string_view bytes, bool compressed) = 0;

 protected:
  ~message_sink() = default;
};

/// How a response ended: its status, or, when `error` is set, a response of the wrong shape
/// (wrong_reply, unexpected_status) whose text is `message`.
struct rpc_outcome {
  status_code code = status_code::ok;
  std::string message;  // decoded (not percent-encoded)
  std::error_code error;
};

class rpc_client_wire {
 public:
  virtual ~rpc_client_wire() = default;
  /// "grpc", "connect", "grpc-web": its registry entry's name on HTTP/2.
  virtual std::string_view name() const = 0;
  /// How its greet call is written, for the entry's summary (`wirebench list`).
  virtual std::string_view summary() const = 0;
  /// The call's headers after the four pseudo-headers and before the user's metadata: the
  /// content type for a call of this shape and format, and the protocol's own. Values must
  /// outlive the stream (literals, or `timeout`, which the codec keeps). `timeout` empty: none.
  virtual void request_headers(bool streaming, message_format format, std::string_view timeout,
                               std::vector<nghttp2_nv>& out) const = 0;
  /// A timeout as the wire's header writes it (grpc-timeout's units, Connect-Timeout-Ms).
  virtual std::string format_timeout(std::chrono::nanoseconds timeout) const = 0;
  /// True when a call of this shape sends its one request message bare (Connect's unary calls);
  /// else every message is enveloped as gRPC's.
  virtual bool bare(bool streaming) const { (void)streaming; return false; }
  /// Where the codec keeps a response header or HTTP trailer: 0 the encoding, 1 the status,
  /// 2 its message; -1: not one the wire reads (content-type the codec keeps itself).
  virtual int response_header_slot(std::string_view name) const = 0;
  /// Reads the response: hands each reply message to `messages` in order, and returns how the
  /// call ended. `max_message`: the largest message (and end-of-stream block) read.
  virtual rpc_outcome read_response(const rpc_response& r, bool streaming, std::size_t max_message,
                                    message_sink& messages) const = 0;
  /// A call that ended with `code` (not ok): the error it counts as (gRPC's status_NAME,
  /// Connect's connect_NAME).
  virtual std::error_code failed(status_code code) const { return status_error(code); }

  /// Where a stream's status is in its body (Connect's end of stream, gRPC-Web's trailers frame):
  /// the flag of that last envelope; 0 where it comes in HTTP trailers (gRPC's).
  virtual std::uint8_t end_flag() const { return 0; }
  /// That envelope's bytes (inflated) as the call's outcome (a wrong_reply one when they are not
  /// what the wire ends a body with).
  virtual rpc_outcome read_end(std::string_view bytes) const;

  /// The messages' format on this wire (`connect-json`: JSON; else protobuf's binary form).
  virtual message_format format() const { return message_format::proto; }
  /// A request's body as it goes on the wire, made from its messages (as framed) in `body`, in
  /// place; `scratch` is the caller's, reused. Unchanged but for a text wire (gRPC-Web's base64).
  virtual void wrap_body(std::string& body, std::string& scratch) const { (void)body, (void)scratch; }
  /// How many bytes a body of `bytes` bytes of messages takes once wrapped.
  virtual std::size_t wrapped_size(std::size_t bytes) const { return bytes; }
  /// A response's body as messages, from what came (`body`); `scratch` may hold the result.
  /// nullopt: not in the wire's body encoding (the call fails wrong_reply).
  virtual std::optional<std::string_view> unwrap_body(std::string_view body, std::string& scratch) const {
    (void)scratch;
    return body;
  }
};

/// What gRPC's wire and gRPC-Web's share: grpc-timeout's units, and the response's grpc-encoding,
/// grpc-status and grpc-message (in the headers or trailers: gRPC-Web's Trailers-Only).
class grpc_family_client_wire : public rpc_client_wire {
 public:
  std::string format_timeout(std::chrono::nanoseconds timeout) const override;
  int response_header_slot(std::string_view name) const override;
};

/// gRPC's own (grpc_client_wire.cpp).
const rpc_client_wire& grpc_client_wire();

/// A response of the wrong shape, saying why.
inline rpc_outcome wrong_reply_outcome(std::string why) {
  return {status_code::unknown, std::move(why), make_error_code(errc::wrong_reply)};
}

/// What gRPC and gRPC-Web read first: a status other than OK in the headers (Trailers-Only)
/// ends the call with it; an HTTP status other than 200 is unexpected_status. nullopt: neither.
std::optional<rpc_outcome> grpc_status_first(const rpc_response& r);

/// Reads a body of envelopes whose last one has `end_flag` set (gRPC-Web's trailers frame,
/// Connect's end of stream): each message before it to `messages`, then the end's bytes
/// (inflated when its flag 0x01 says so and the response's encoding is gzip; at most `max_end`)
/// to `end`, whose outcome is the call's. A body without that end, or with bytes after it, is
/// wrong_reply.
rpc_outcome read_enveloped(const rpc_response& r, std::uint8_t end_flag, std::size_t max_message,
                           std::size_t max_end, message_sink& messages,
                           const std::function<rpc_outcome(std::string_view)>& end);

}  // namespace wirebench::grpc_wire
