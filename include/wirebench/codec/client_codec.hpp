#pragma once
// What a protocol supplies to the client engine (wirebench/client/client_engine.hpp): a sans-IO codec that turns a
// call into bytes and bytes into replies. It never sees a socket, a timer or a completion; the
// engine owns those once for every protocol (h2load's Session, beside its Client).
//
// One codec per connection, made fresh for every connection (a re-dial gets a new one), used only
// on that connection's thread.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "wirebench/core/api.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace wirebench {

/// How replies find their calls.
enum class reply_order : std::uint8_t {
  by_id,     // replies carry the id the call was encoded with, in any order (mux, HTTP/2, ...)
  in_order,  // replies come in request order and carry nothing (line, RESP, HTTP/1.1, ...)
};

/// One decoded reply.
struct codec_reply {
  std::uint32_t id = 0;  // by_id: the call's id; in_order: ignored (the oldest call is meant)
  /// Empty: `body` is the reply. remote_error: the server answered with an error, `body` its
  /// reason. Any other code: the call failed with it (wrong_reply for an answer of the wrong shape).
  std::error_code error;
  std::string_view body;  // valid until the codec's next decode()
  /// The server refused the call without processing it (HTTP/2 REFUSED_STREAM, or a stream above a
  /// GOAWAY's last-stream-id): the engine sends it again, on a new connection if this one is going.
  bool not_processed = false;
};

/// What one decode() found, beside the replies.
struct decoded {
  std::vector<codec_reply> replies;  // in arrival order; cleared by the engine before each decode
  /// The server will take no new call on this connection (HTTP/2 GOAWAY, a mux drain frame, an
  /// HTTP/1.1 response with Connection: close): the engine re-dials, and what it still has to send
  /// goes to the new connection.
  bool going_away = false;
  /// With going_away: calls still in flight after the last reply will never be answered, since the
  /// server did not process them (HTTP/1.1 requests pipelined behind the one that closed): the
  /// engine sends them again on the new connection.
  bool rest_not_processed = false;
};

/// A protocol's sans-IO client codec (see above): one per connection, used only on its thread.
class WIREBENCH_API client_codec {
 public:
  /// Virtual: a codec is owned through the base (client_codec_factory's unique_ptr).
  virtual ~client_codec() = default;

  /// How this protocol's replies find their calls.
  virtual reply_order order() const = 0;
  /// True if decode() may report calls as not processed (not_processed, rest_not_processed): the
  /// engine then keeps each call's request until its reply, to send it again. False spares that
  /// copy per call.
  virtual bool may_refuse() const { return false; }
  /// The connection is open: what the protocol says before any call (HTTP/2's preface and
  /// SETTINGS, a TLS ClientHello). Nothing by default.
  virtual std::error_code open(gather_queue& out) {
    (void)out;
    return {};
  }
  /// Encodes one call (`request` is the call's payload: a greet name). A codec may queue the bytes
  /// and emit them in produce() instead (nghttp2 does, so that one write carries a batch).
  /// Errors: invalid_argument or frame_too_long (the call fails with it, the connection stays).
  virtual std::error_code encode(std::uint32_t id, std::string_view request, gather_queue& out) = 0;
  /// Decodes what it can of `data` (every unconsumed byte) into `into`, appending to `out` what the
  /// protocol answers by itself (pong, SETTINGS ack, WINDOW_UPDATE). Returns the bytes consumed;
  /// sets `error` when the stream is broken (the connection then closes with it, after the
  /// replies in `into`, which were whole before the break, are delivered).
  virtual std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue& out,
                             std::error_code& error) = 0;
  /// Tells the server call `id` was canceled; false if the protocol has no way to.
  virtual bool cancel(std::uint32_t id, gather_queue& out) {
    (void)id;
    (void)out;
    return false;
  }
  /// Queues the protocol's ping (HTTP/2 PING, a mux ping) for a keep-alive check (keepalive.hpp);
  /// the server's answer, or any byte of it, tells the engine the connection lives. False if the
  /// protocol has no ping (the registry refuses keep-alive for such a protocol). Like encode(),
  /// a codec may queue it and emit it in produce().
  virtual bool ping(gather_queue& out) {
    (void)out;
    return false;
  }
  /// Emits what encode() and decode() queued; called just before every write. Returns an error
  /// when the stream is broken (the connection closes with it).
  virtual std::error_code produce(gather_queue& out) {
    (void)out;
    return {};
  }
  /// The server ended the stream, before the calls still in flight fail with it: cleanly
  /// (`clean`: end-of-file) or by a reset. A protocol whose reply may be delimited by the end of
  /// the stream (HTTP/1.x without Content-Length or chunking) completes it into `into` on a clean
  /// end. One that can tell that the calls still in flight were never processed and may safely go
  /// again (HTTP/1.1: no byte of the next response came, and the requests are idempotent) sets
  /// `into.rest_not_processed`; the engine then sends them again on a new connection, if this one
  /// had answered before. Nothing by default: those calls fail.
  virtual void end_of_stream(bool clean, decoded& into) {
    (void)clean;
    (void)into;
  }
  /// True while a reply is partly received (EOF then truncates it).
  virtual bool mid_reply() const = 0;
  /// Why the stream broke, in words, once decode() or produce() has returned an error (TLS: what
  /// OpenSSL said, "certificate verify failed"); empty when the code says it all. The calls lost
  /// with the connection carry it as their text.
  virtual std::string failure() const { return {}; }
  /// The read buffer's bound: the largest reply plus its framing.
  virtual std::size_t max_read_bytes() const = 0;
  /// True when how broken input fails depends on how it was cut into reads (nghttp2: a bad
  /// header block read in pieces is a stream error, read with the bad frame behind it a
  /// connection error): a fuzzer then compares two cuts' replies only up to the first failure.
  virtual bool failures_depend_on_reads() const { return false; }
};

/// Makes a new connection's codec: one client's, which may share what that client set up once
/// (a TLS context, the Host header). Called on the connection's thread.
using client_codec_factory = std::function<std::unique_ptr<client_codec>()>;

}  // namespace wirebench
