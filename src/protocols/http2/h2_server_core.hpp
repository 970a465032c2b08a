#pragma once
// The server side of one HTTP/2 connection (RFC 9113), sans-IO, without the application: nghttp2's
// server session, the request streams' records, and the server_codec plumbing (decode, produce,
// graceful stop) that every HTTP/2 application shares. An application (the REST greet routes in
// h2_rest_session.hpp, gRPC in ../grpc/grpc_server_session.hpp) derives from it: it reads each
// request's headers and, once the stream has ended, either hands the request out as a call or
// answers it itself; it encodes the replies with respond(). A streaming request (gRPC's
// bidirectional methods) instead has its DATA handed to the application as it arrives and its
// response kept open (open_response(), response_appended(), finish_response()); its window is
// given back only while its unsent response stays under a bound, so a client that does not read
// stops being read on that stream.
//
// Plaintext bytes from the client go in through decode(); everything the server has to say comes
// out of produce(). No socket, TLS, loop or server is involved, so tests and fuzzers drive it
// with byte strings; the codec host (server/codec_session.hpp) puts it on a connection (and TLS
// under it). A call whose stream the client resets before its reply is dropped. nghttp2's flood
// protections stay on. On top of nghttp2 it enforces RFC 9113 §5.1.1: a HEADERS on a stream id the
// client skipped (implicitly closed when a higher one was opened) is a connection error
// PROTOCOL_ERROR; nghttp2 1.52 ignores it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "h2_util.hpp"
#include "wirebench/codec/server_codec.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace wirebench::http2 {

struct server_session_config {
  std::uint32_t max_concurrent_streams = 100;  // SETTINGS_MAX_CONCURRENT_STREAMS
  // Flow-control windows granted: per stream (SETTINGS_INITIAL_WINDOW_SIZE) and for the connection
  // (WINDOW_UPDATE on stream 0). 0 keeps the protocol's 65 535 bytes.
  std::uint32_t stream_window_bytes = 0;
  std::uint32_t connection_window_bytes = 0;
  std::size_t max_body_bytes = 64 * 1024;  // a longer request body is the application's to refuse
  // A streaming request's stream window is withheld (its client stops sending on it) while this
  // many bytes of its response wait to be sent: a client that sends and never reads cannot make
  // the server buffer its replies without bound.
  std::size_t max_unsent_stream_bytes = 64 * 1024;
};

/// One request stream's record: what the core collects (method, path, body) and the response
/// being sent. An application that needs more of the request derives from it (make_stream()).
/// Records are reused once their stream closes: a steady load makes none and grows no string.
struct server_stream {
  virtual ~server_stream() = default;
  /// Back to empty for the next stream; an override clears its own fields and calls this.
  virtual void reset();

  std::string method, path, body;
  std::string response;  // the body being sent (respond() with a body)
  /// Trailers sent after the body's last byte (gRPC's grpc-status): names must outlive the
  /// stream (literals), values are copied by nghttp2. None: the body ends the stream.
  std::vector<std::pair<std::string_view, std::string>> trailers;
  std::size_t sent = 0;
  bool answered = false;
  bool answered_early = false;  // answered (body over the limit) while the client was still sending
  // A streaming request (the application says so when its headers end): its DATA goes to
  // request_data() as it arrives, and its response is open (open_response()) until
  // finish_response(), the body growing as the application appends to `response`.
  bool streaming = false;
  bool finished = false;  // streaming: the response's last byte is in `response`
  bool deferred = false;  // streaming: nghttp2 waits for more of the response (resume to send it)
  std::size_t withheld = 0;  // streaming: DATA bytes not yet given back to the stream's window
};

class server_core : public server_codec {
 public:
  // nghttp2 holds `this` as its user data: the session stays where it was made.
  server_core(const server_core&) = delete;
  server_core& operator=(const server_core&) = delete;
  ~server_core() override;

  // server_codec. Replies go out by stream, in any order. A call whose stream the client resets
  // after ending it is still handed out (and counted, as a mux request cancelled after it was
  // sent is); its reply is dropped.
  bool ordered() const override { return false; }
  // Takes every byte (nghttp2 keeps what it needs of a partial frame), then hands out one request
  // whose stream ended: a call (the key is its stream id), or one answered already. Sets
  // errc::protocol_error when the connection must close (produce() then has the GOAWAY nghttp2
  // queues when the connection can still take one: not after a bad client preface or a flood),
  // and errc::peer_closed when both sides have said goodbye (some connection errors nghttp2
  // settles itself: a HEADERS on a stream that has ended gets GOAWAY STREAM_CLOSED).
  std::size_t decode(std::span<const std::byte> data, server_request& into, gather_queue& out,
                     std::error_code& error) override;
  // Everything the session has to send now, appended to `out`. Returns errc::protocol_error on a
  // fatal nghttp2 error (what was appended before it stays).
  std::error_code produce(gather_queue& out) override { return send(out); }
  // A graceful stop begins (RFC 9113 §6.8): GOAWAY(NO_ERROR) with the highest stream id, so
  // the client opens no more streams while those it already sent are still read and answered.
  void going_away(gather_queue&) override { notice_shutdown(); }
  bool ping(gather_queue&) override;  // PING, out in produce(); nghttp2 takes the ACK
  // A graceful stop's last word: GOAWAY(NO_ERROR) naming the last stream processed, so the
  // client knows any later stream was not (and may send it again). Goes out with the next produce().
  void last_read(gather_queue&) override { go_away(); }
  // Requests answered whose responses are not all sent yet.
  std::size_t replies_in_flight() const override { return responding_; }
  // nghttp2 keeps partial frames itself: nothing is left in the read buffer.
  bool mid_request() const override { return false; }
  std::size_t max_read_bytes() const override { return 64 * 1024; }
  // True while a request stream is open (its request still arriving, or its reply not yet sent).
  bool busy() const override { return open_streams_ != 0; }
  // SETTINGS acks and window updates go out as frames arrive, and a stream past the limit is
  // refused only while earlier ones are open: the bytes written depend on how reads were cut.
  bool output_depends_on_reads() const override { return true; }

  // The same steps by name, for tests: plaintext in (all of it consumed; no call handed out), and
  // the output appended.
  std::error_code receive(std::span<const std::byte> plain);
  std::error_code send(gather_queue& out);
  std::error_code send(std::string& out);
  // nghttp2's view: false for both once the session has said and heard goodbye (GOAWAY sent and
  // nothing left to send, or the peer's GOAWAY with no stream left): the connection may close.
  bool want_read() const;
  bool want_write() const;
  void notice_shutdown();
  void go_away();

  // Runs of skipped stream ids remembered (a client that skips ids cannot grow our memory): past
  // this many, the oldest run is forgotten, and a HEADERS on it is left to nghttp2, which drops it.
  static constexpr std::size_t max_skipped_runs = 64;

 protected:
  // Queues the server's SETTINGS (and the connection WINDOW_UPDATE): the first produce() has them.
  explicit server_core(const server_session_config& config);

  // The application's part. Each runs inside receive() (nghttp2's callbacks), on the
  // connection's thread; the record is the core's, valid until the stream closes.
  // A new record: the application's own type when it keeps more of the request.
  virtual std::unique_ptr<server_stream> make_stream() { return std::make_unique<server_stream>(); }
  // A request header other than :method and :path (kept in the record by the core).
  virtual void request_header(server_stream& st, std::string_view name, std::string_view value) {
    (void)st, (void)name, (void)value;
  }
  // The request's headers are all in (its stream may still send DATA): a streaming request is
  // marked here (st.streaming), and may open its response.
  virtual void request_headers_ended(std::int32_t stream_id, server_stream& st) {
    (void)stream_id, (void)st;
  }
  // A streaming request's DATA, as it arrives (the bytes are nghttp2's, valid during the call).
  virtual void request_data(std::int32_t stream_id, server_stream& st, std::string_view bytes) {
    (void)stream_id, (void)st, (void)bytes;
  }
  // The request's stream has ended (its body, within the limit, is in st.body; a streaming
  // request's went to request_data()): hand it out (hand_out_call) or answer it (respond, then
  // hand_out_answered); a streaming one may finish its response.
  virtual void request_ended(std::int32_t stream_id, server_stream& st) = 0;
  // The body grew past max_body_bytes while the client was still sending: answer it (respond);
  // the core then hands it out as answered and resets the stream once the answer is sent.
  virtual void body_too_large(std::int32_t stream_id, server_stream& st) = 0;

  // For the application: a call to hand out under `key` (the stream id, or the application's
  // own key for calls on a stream; the argument is copied), or a request answered.
  void hand_out_call(std::uint64_t key, std::string_view argument);
  void hand_out_answered(std::int32_t stream_id);
  // The record of call `key` (a stream id) if its reply is still owed (null: reset by the
  // client since).
  server_stream* unanswered(std::uint64_t key);
  // The record of an open request stream (null once it has closed).
  server_stream* open_record(std::int32_t stream_id);
  // Submits the response on `stream_id`: these headers, then st.response as the body when
  // `with_body` (else the headers end the stream, or the trailers follow them at once when there
  // are any: gRPC's Trailers-Only puts its status in the headers instead), then st.trailers.
  void respond(std::int32_t stream_id, server_stream& st, std::span<const nghttp2_nv> headers,
               bool with_body);
  // A streaming request's response: these headers now, then st.response as the application
  // appends to it (response_appended() after each append), then st.trailers once
  // finish_response() says the body is complete.
  void open_response(std::int32_t stream_id, server_stream& st, std::span<const nghttp2_nv> headers);
  void response_appended(std::int32_t stream_id, server_stream& st);
  void finish_response(std::int32_t stream_id, server_stream& st);
  std::size_t max_body() const { return max_body_; }

 private:
  struct callbacks;  // nghttp2's callbacks, in the .cpp
  // A request whose stream ended, waiting to be handed out by decode(). A call keeps its
  // argument here: the client may reset the stream before decode() hands it out, and the call
  // is still one the server took (its reply is then dropped), whatever the reads' cut.
  struct ended_request {
    std::uint64_t key;
    bool call;  // false: answered already
    std::string argument;
  };

  // False (and the session terminated with PROTOCOL_ERROR) when `stream_id` is a HEADERS on a
  // stream id the client skipped; otherwise records it as opened when it is a new one.
  bool admit_headers(std::int32_t stream_id);
  server_stream* open_stream();
  void close_stream(server_stream* st);
  // A streaming request's DATA is given back to its window unless its unsent response is over
  // the bound; then it is withheld until send() has drained the response below it.
  void consume(std::int32_t stream_id, server_stream* st, std::size_t bytes);
  bool give_back_withheld();

  session_ptr session_;
  std::size_t max_body_;
  std::size_t max_unsent_stream_;
  std::vector<std::int32_t> withheld_;  // streams whose window is held back
  std::vector<std::unique_ptr<server_stream>> records_;  // every record made (stable addresses)
  std::vector<server_stream*> free_records_;
  std::size_t open_streams_ = 0;
  std::size_t responding_ = 0;  // answered, response not all sent
  // In the order their streams ended; handed out from `next_ended_`, and cleared once all are
  // (a vector, not a deque: a steady load then allocates nothing).
  std::vector<ended_request> ended_;
  std::size_t next_ended_ = 0;
  std::string handed_out_;  // the argument of the call decode() handed out last
  // Client stream ids, which only grow (RFC 9113 §5.1.1): the highest opened, and the runs of ids
  // it skipped, [first, last] in increasing order. A client that opens 1, 3, 5... skips nothing.
  std::int32_t highest_opened_ = -1;  // so that 1 skips nothing
  std::vector<std::pair<std::int32_t, std::int32_t>> skipped_;
};

}  // namespace wirebench::http2
