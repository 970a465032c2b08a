#pragma once
// The protocols that carry gRPC's calls over HTTP, as the gRPC server session serves them: gRPC
// itself (grpc_dialect.cpp), and those other folders register (Connect, gRPC-Web), each chosen
// per request by what its headers say, so that one server on one port answers all of them, as
// connect-go's handlers do. A dialect says how a request's messages are framed and encoded, and
// how a response starts, carries messages and ends (with a status, or an error); the session
// keeps the service (Greet handed out as the call, Echo's fixtures, the streams). This folder
// names no dialect but gRPC's: a dialect's folder includes this header (the core it extends) and
// registers with rpc_dialect_registration. Sans-IO: strings in, strings out.
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "grpc_status.hpp"

namespace wirebench::grpc_wire {

/// A request's headers as a dialect reads them: the session keeps those some dialect reads
/// (rpc_dialect::headers_read), and no other.
struct rpc_request {
  std::string_view method;        // :method
  std::string_view path;          // :path, with its query if any
  std::string_view content_type;  // "" when absent
  std::span<const std::string_view> names;  // read_header_names()
  const std::string* values = nullptr;      // by the same index ("" when absent)
  // The method it calls has no side effects (the service says which): Connect lets a GET call it.
  bool side_effect_free = false;

  /// A header's value by its slot (header_slot(): "" when absent or empty; the last one when
  /// repeated).
  std::string_view header(std::size_t slot) const { return values[slot]; }
};

/// How messages are written: protobuf's binary form, or its canonical JSON mapping.
enum class message_format : std::uint8_t { proto, json };

/// What a dialect decided about one request, kept with its stream.
struct rpc_call {
  message_format format = message_format::proto;
  // The request's body is the one message itself (Connect's unary calls), not enveloped.
  bool bare = false;
  // The request's messages are compressed with gzip (each message, or the bare body).
  bool gzip = false;
  // The deadline the request asks for, from now (nullopt: none).
  std::optional<std::chrono::nanoseconds> timeout;
  // The HTTP status of a refusal when the dialect's own mapping is not the one (0: it is): gRPC's
  // 405 for a method other than POST, Connect's 415 for a content type the method cannot take.
  int refusal_status = 0;
  // The request's message came in its query (Connect's GET), not its body: `query_message`,
  // decoded, is the bare message.
  bool from_query = false;
  std::string query_message;
};

/// How a response begins: its status and headers (names literal or the dialect's; values copied).
struct rpc_response_head {
  int status = 200;
  std::string content_type;
  std::vector<std::pair<std::string_view, std::string>> headers;  // after content-type
};

/// One protocol over HTTP (see above). Stateless: one instance serves every request.
class rpc_dialect {
 public:
  virtual ~rpc_dialect() = default;
  /// "grpc", "connect", "grpc-web": where results and logs name it.
  virtual std::string_view name() const = 0;
  /// The request headers it reads besides content-type (lower-case): the session keeps their
  /// values, and only theirs (copying every header cost the gRPC server 10% of its time per call).
  virtual std::span<const std::string_view> headers_read() const = 0;
  /// True when the request is this dialect's (its content type, a GET's query).
  virtual bool serves(const rpc_request& r) const = 0;
  /// Reads how the request is written into `call`. `streaming`: the method is a stream on either
  /// side (Expand, Collect, Update and the greet streams): a dialect may frame those otherwise
  /// than unary ones. A status other than ok refuses the request, `why` its message.
  virtual status_code accept(const rpc_request& r, bool streaming, rpc_call& call,
                             std::string& why) const = 0;
  /// The request body's bytes as the envelopes (or the bare message) they carry: for a binary
  /// dialect the bytes themselves (`out` views them: no copy); a text dialect decodes them into
  /// `scratch` (`pending` keeps what cannot be decoded yet, for a stream's next bytes). False when
  /// they cannot be decoded.
  virtual bool unwrap(std::string_view bytes, std::string& pending, std::string& scratch,
                      std::string_view& out) const {
    (void)pending, (void)scratch;
    out = bytes;
    return true;
  }
  /// The header that names the request's compression (in refusals): grpc-encoding, ...
  virtual std::string_view encoding_header(const rpc_call& call) const = 0;
  /// The head of a response that will carry messages (a stream's, before its first one).
  virtual void open(const rpc_request& r, const rpc_call& call, rpc_response_head& head) const = 0;
  /// Appends one reply message (serialized in the call's format) to the response body.
  virtual void append_message(const rpc_call& call, std::string_view message,
                              std::string& body) const = 0;
  /// How the response ends, with `code` (ok, or an error with `message`). When `opened`, the head
  /// has gone out (a stream's, or a unary response's with its messages in `body`): the end goes
  /// into the body or the trailers. When not, this is the whole response to a request refused
  /// or failed before any message: `head` is filled in, and the body if it has one.
  virtual void finish(const rpc_request& r, const rpc_call& call, status_code code,
                      std::string_view message, bool opened, rpc_response_head& head,
                      std::string& body,
                      std::vector<std::pair<std::string_view, std::string>>& trailers) const = 0;
};

/// An encoding every dialect here takes for a request's messages: none named, identity or gzip.
inline bool is_known_encoding(std::string_view encoding) {
  return encoding.empty() || encoding == "identity" || encoding == "gzip";
}

/// The dialects registered, gRPC's first; the one that serves `r` (null: none).
const rpc_dialect* dialect_for(const rpc_request& r);
/// Every header some registered dialect reads, each once: the slots a request keeps. Fixed once
/// asked (after static initialisation, when every dialect has registered).
std::span<const std::string_view> read_header_names();
/// The slot of a header a dialect reads (its index in read_header_names()): a dialect finds each
/// once (a function's static), not by name per request.
std::size_t header_slot(std::string_view name);
/// gRPC's own (grpc_dialect.cpp): for a request no dialect serves, the session answers in its
/// terms (415 with grpc-status, as grpc-go does).
const rpc_dialect& grpc_dialect();

/// A dialect's folder registers it at namespace scope:
///   const rpc_dialect_registration connect_registration{connect_dialect()};
/// Registered dialects live as long as the program.
struct rpc_dialect_registration {
  explicit rpc_dialect_registration(const rpc_dialect& dialect);
};

}  // namespace wirebench::grpc_wire
