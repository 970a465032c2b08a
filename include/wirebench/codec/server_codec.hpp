#pragma once
// What a protocol supplies to the session server, the mirror of client_codec.hpp: a sans-IO codec
// that turns bytes into requests and replies into bytes. It never sees a socket, a timer, a thread
// or the application: the session that hosts it (server/codec_session.hpp) owns the
// connection, hands each call to the application (inline or on the worker pool, with its service
// time), counts requests, and writes what the codec appends to `out`.
//
// One codec per connection, made fresh for every connection, used only on that connection's
// thread.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <system_error>

#include "wirebench/core/api.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace wirebench {

/// One thing decode() found.
struct server_request {
  enum class kind : std::uint8_t {
    none,      // nothing whole yet: decode() needs more bytes
    call,      // a call for the application: `argument` (a greet name), its reply via encode_reply
    answered,  // a request the protocol answered itself (PING, a 404, an oversize frame under
               // resync): `answer` holds the reply's bytes, written in the request's turn (empty:
               // the codec has queued the answer in its own state, out through produce())
    notice,    // bytes the peer is owed in this turn that answer no request (the reply to
               // bytes that are no request, HTTP's 100 Continue, a mux pong): `answer`; not counted
    cancel,    // the peer withdrew call `key` (a mux cancel frame): its reply, if not yet
               // encoded, never will be; not counted
  };
  kind what = kind::none;
  /// What encode_reply() gets back with the reply: the request id, stream id or msgid (FIFO
  /// protocols may leave it 0).
  std::uint64_t key = 0;
  /// kind::call: valid until the next decode().
  std::string_view argument;
  /// kind::answered, kind::notice: the bytes, already encoded.
  std::string answer;
};

/// A protocol's sans-IO server codec (see above): one per connection, used only on its thread.
class WIREBENCH_API server_codec {
 public:
  /// Virtual: a codec is owned through the base (server_codec_factory's unique_ptr).
  virtual ~server_codec() = default;

  /// True: replies must go out in request order (FIFO protocols: line, RESP, HTTP/1.1); the host
  /// then holds a reply until every earlier one has gone. False: in completion order (by id).
  virtual bool ordered() const = 0;
  /// Decodes at most one request from the front of `data` (every unconsumed byte) into `into`
  /// (reset by the caller), appending to `out` what the protocol says by itself (pong, SETTINGS
  /// ack). Returns the bytes consumed, which may be more than one request's (a codec that parses
  /// a whole read at once keeps the requests it found, and hands them out on the next calls,
  /// with empty `data`). Sets `error` when the stream is broken or is to end after the replies
  /// owed (RESP QUIT, HTTP/1.1 Connection: close): the host then stops reading, writes every reply
  /// still owed, and closes with it. A request decoded together with the error is still served.
  virtual std::size_t decode(std::span<const std::byte> data, server_request& into,
                             gather_queue& out, std::error_code& error) = 0;
  /// Encodes the reply to call `key`: `body` on success, else an error whose text is `body`.
  virtual void encode_reply(std::uint64_t key, bool ok, std::string_view body,
                            gather_queue& out) = 0;
  /// As encode_reply(), handed the body: a codec that can queue it without a copy (a large reply
  /// computed on a worker) overrides this.
  virtual void encode_owned_reply(std::uint64_t key, bool ok, std::string&& body,
                                  gather_queue& out) {
    encode_reply(key, ok, body, out);
  }
  /// Emits what decode() and encode_reply() queued; called just before every write (nghttp2
  /// gathers a loop turn's frames into one mem_send). Returns an error when the stream is broken.
  virtual std::error_code produce(gather_queue& out) {
    (void)out;
    return {};
  }
  /// A graceful stop begins: the protocol's going-away signal (mux drain frame, HTTP/2 shutdown
  /// notice), or a mark on the replies to the last read (HTTP/1.1 Connection: close).
  virtual void going_away(gather_queue& out) { (void)out; }
  /// A graceful stop's last read was decoded: nothing more is read (HTTP/2's final GOAWAY names
  /// the last stream taken).
  virtual void last_read(gather_queue& out) { (void)out; }
  /// Queues the protocol's ping to the client for a keep-alive check (transport/keepalive.hpp),
  /// or emits it in the next produce(); false if the protocol has none.
  virtual bool ping(gather_queue& out) {
    (void)out;
    return false;
  }
  /// Replies encoded but not yet wholly produced (HTTP/2 responses still being sent): a graceful
  /// stop waits for them, and counts them as cut if it cannot.
  virtual std::size_t replies_in_flight() const { return 0; }
  /// True while part of a request has been read (end of stream then truncates it).
  virtual bool mid_request() const = 0;
  /// True while the codec holds requests still arriving that the host cannot see (an HTTP/2
  /// stream whose body is on its way): a graceful stop waits for them, within its grace.
  virtual bool busy() const { return false; }
  /// True when the bytes written depend on how the input was cut into reads (HTTP/2 acknowledges
  /// frames as they arrive): a fuzzer then compares two cuts' calls, not their bytes.
  virtual bool output_depends_on_reads() const { return false; }
  /// The earliest deadline of a call still owed a reply (gRPC's grpc-timeout), or max() for
  /// none: the host then calls expire() once it has passed, since the reply may never come in
  /// time (a call on the worker pool). Asked after each read, only when calls run off the
  /// connection's thread.
  virtual std::chrono::steady_clock::time_point next_deadline() {
    return std::chrono::steady_clock::time_point::max();
  }
  /// Answers every call whose deadline is past `now` as the protocol says (gRPC:
  /// DEADLINE_EXCEEDED), appending what it has to say to `out`; their replies, when they come,
  /// are dropped.
  virtual void expire(std::chrono::steady_clock::time_point now, gather_queue& out) {
    (void)now;
    (void)out;
  }
  /// The read buffer's bound: the largest request plus its framing (a codec that keeps what it
  /// needs of a partial request itself may ask for less).
  virtual std::size_t max_read_bytes() const = 0;
};

/// Makes a new connection's codec. Called on the connection's thread, any transport thread,
/// concurrently: a factory shares only what is read-only.
using server_codec_factory = std::function<std::unique_ptr<server_codec>()>;

}  // namespace wirebench
