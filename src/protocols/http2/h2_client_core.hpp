#pragma once
// The client side of one HTTP/2 connection (RFC 9113), sans-IO, without the application: an
// nghttp2 client session as a client_codec on the client engine. Every call is a stream, matched
// by the call id kept in its record. Streams beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS
// wait inside nghttp2 (they are not failed); a canceled call resets its stream. A stream the
// server refused unprocessed (REFUSED_STREAM, or above a GOAWAY's last-stream-id, which nghttp2
// closes as refused) is reported as not processed, and the engine sends it again; a GOAWAY makes
// the engine dial a new connection. An application (REST in h2_client.cpp, gRPC in
// ../grpc/grpc_client_codec.cpp) derives from it: it submits each call's request (encode) and
// judges each closed stream's response (reply_for).
//
// nghttp2 encodes lazily: requests are submitted in encode() and serialized together in
// produce(), just before the connection's write, so a loop turn's requests share frames and one
// write. nghttp2's callbacks only record; replies are handed out when mem_recv has returned.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "h2_util.hpp"
#include "wirebench/codec/client_codec.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench::http2 {

/// One call's stream: what the core records of the response, and the request's bytes. An
/// application that needs more derives from it (make_stream()). Records come from a pool and keep
/// their strings' capacity: a steady load allocates no record, path or body.
struct client_stream {
  virtual ~client_stream() = default;
  /// Back to empty for the next call; an override clears its own fields and calls this.
  virtual void reset();

  std::uint32_t call = 0;
  std::int32_t id = -1;
  bool in_use = false;     // taken by a call, not yet handed back to the pool
  int status = 0;          // :status
  std::uint32_t error = 0;  // the RST_STREAM or GOAWAY code the stream closed with
  bool oversize = false;   // the response body passed the limit: the stream was reset
  std::string path;        // the :path value, referenced by nghttp2 until the stream closes
  std::string body;        // the response body (DATA frames)
  // The request's own bytes (header values, body), referenced by nghttp2 until the stream closes;
  // the body is request[body_at, body_at + body_size).
  std::string request;
  std::size_t body_at = 0, body_size = 0, body_sent = 0;
  std::string text;  // the reply's text when the verdict builds one
  std::size_t user_request = 0;  // a user call's: which request of the mix it sent
  // A long-lived stream carrying many calls (gRPC's bidirectional stream): its DATA goes to
  // response_data() as it arrives, its request body is `request` as the application appends to
  // it (request_grew() after each append; body_at and body_size unused) until request_closed,
  // and its close goes to stream_ended(), not to a verdict.
  bool streaming = false;
  bool request_closed = false;  // streaming: END_STREAM once `request` is sent
  bool deferred = false;        // streaming: nghttp2 waits for more of the request
};

class client_core : public client_codec {
 public:
  ~client_core() override;
  client_core(const client_core&) = delete;
  client_core& operator=(const client_core&) = delete;

  reply_order order() const override { return reply_order::by_id; }
  bool may_refuse() const override { return true; }
  std::error_code open(gather_queue& out) override;  // the preface
  std::error_code produce(gather_queue& out) override;
  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue& out,
                     std::error_code& error) override;
  bool cancel(std::uint32_t id, gather_queue&) override;  // the RST_STREAM goes out in produce()
  bool ping(gather_queue&) override;  // PING, out in produce(); nghttp2 takes the ACK
  bool mid_reply() const override { return false; }
  std::size_t max_read_bytes() const override { return 64 * 1024; }
  bool failures_depend_on_reads() const override { return true; }

 protected:
  // `max_body`: the largest response body accepted (a longer one resets its stream).
  explicit client_core(std::size_t max_body);

  // The application's part, run on the connection's thread.
  // A new record: the application's own type when it keeps more of the response.
  virtual std::unique_ptr<client_stream> make_stream() { return std::make_unique<client_stream>(); }
  // A response header or trailer other than :status (inside decode(): nghttp2's callback).
  virtual void response_header(client_stream& s, std::string_view name, std::string_view value) {
    (void)s, (void)name, (void)value;
  }
  // The verdict on a closed stream that was neither refused, reset nor oversize (from decode()).
  // The reply's views must stay valid until the next decode(): in the record, or kept().
  virtual codec_reply reply_for(client_stream& s) = 0;
  // A streaming record's DATA as it arrives (inside decode(); the bytes are nghttp2's, valid
  // during the call): replies found go out through deliver().
  virtual void response_data(client_stream& s, std::string_view bytes) { (void)s, (void)bytes; }
  // A streaming record's stream has closed (inside decode(), after the replies it delivered):
  // the error the connection closes with, failing the calls still waiting on it (none: it stays).
  virtual std::error_code stream_ended(client_stream& s) {
    (void)s;
    return errc::connection_closed;
  }

  // For the application: a fresh record for call `id`, then the request submitted with these
  // headers (whose values it owns or the codec does) and a body when s.body_size != 0.
  client_stream& take_stream(std::uint32_t id);
  std::error_code submit(client_stream& s, std::span<const nghttp2_nv> headers);
  // A streaming record's request grew (or was closed): nghttp2 sends it with the next produce().
  void request_grew(client_stream& s);
  // A reply found on a streaming record, handed out by this decode() (its views as reply_for's).
  void deliver(const codec_reply& reply) { streamed_.push_back(reply); }
  // True once a GOAWAY has come: the engine sends no more calls on this connection.
  bool going_away() const { return goaway_; }
  // A string that lives until the next decode() (an error's text, an unescaped greeting).
  std::string& kept() { return storage_.emplace_back(); }

 private:
  struct callbacks;  // nghttp2's, in the .cpp
  void recycle_delivered();
  codec_reply verdict(client_stream& s);

  std::size_t max_body_;
  std::vector<std::unique_ptr<client_stream>> streams_;  // every record made (stable addresses)
  std::vector<client_stream*> free_;
  std::vector<client_stream*> finished_;    // closed since the last decode
  std::vector<client_stream*> delivered_;   // handed out by the last decode: their bodies are viewed
  std::vector<client_stream*> refused_now_;  // could not even be submitted
  std::deque<std::string> storage_;         // kept(): valid until the next decode
  std::vector<codec_reply> streamed_;       // deliver(): handed out by this decode
  bool goaway_ = false;
  bool broken_ = false;  // we sent a GOAWAY with an error: the session is over
  session_ptr session_;  // last: it goes first, while the records its streams point to remain
};

}  // namespace wirebench::http2
