#pragma once
// The server side of one HTTP/2 connection (RFC 9113), sans-IO: nghttp2's server session with the
// greet routes behind it. Plaintext bytes from the client go in through receive(); what the server
// has to say comes out through send(). No socket, TLS, loop or server is involved, so tests and
// fuzzers drive it with byte strings; h2_server.cpp puts it on a connection (and TLS under it).
//
// Each request is answered when its stream ends (END_STREAM), with the same REST routes as
// HTTP/1.1 (http_common/greet_api): every response carries date, a HEAD one no DATA frame. nghttp2's flood protections stay on. On top of nghttp2 it
// enforces RFC 9113 §5.1.1: a HEADERS on a stream id the client skipped (implicitly closed when a
// higher one was opened) is a connection error PROTOCOL_ERROR; nghttp2 1.52 ignores it.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <system_error>
#include <memory>
#include <utility>
#include <vector>

#include "h2_util.hpp"
#include "../http_common/greet_api.hpp"
#include "wirebench/core/gather_queue.hpp"

namespace wirebench::http2 {

struct server_session_config {
  std::uint32_t max_concurrent_streams = 100;  // SETTINGS_MAX_CONCURRENT_STREAMS
  // Flow-control windows granted: per stream (SETTINGS_INITIAL_WINDOW_SIZE) and for the connection
  // (WINDOW_UPDATE on stream 0). 0 keeps the protocol's 65 535 bytes.
  std::uint32_t stream_window_bytes = 0;
  std::uint32_t connection_window_bytes = 0;
  std::size_t max_body_bytes = 64 * 1024;  // a longer request body is answered 413
};

class server_session {
 public:
  // Queues the server's SETTINGS (and the connection WINDOW_UPDATE): the first send() has them.
  explicit server_session(const server_session_config& config);
  ~server_session();
  // nghttp2 holds `this` as its user data: the session stays where it was made.
  server_session(const server_session&) = delete;
  server_session& operator=(const server_session&) = delete;

  // Plaintext from the client, in any split (nghttp2 keeps what it needs of a partial frame);
  // all of it is consumed. Requests whose stream ends are answered into the output. Returns
  // errc::protocol_error when the connection must close: send() before closing, for the GOAWAY
  // nghttp2 queues when the connection can still take one (not after a bad client preface or a
  // flood, where it just stops). Some connection errors nghttp2 settles itself (a HEADERS on a
  // stream that has ended: GOAWAY STREAM_CLOSED) return no error; want_read() and want_write()
  // turn false instead.
  std::error_code receive(std::span<const std::byte> plain);
  // Everything the session has to send now, appended to `out`. Returns errc::protocol_error on a
  // fatal nghttp2 error (what was appended before it stays).
  std::error_code send(gather_queue& out);
  std::error_code send(std::string& out);

  // Requests answered since the last call (the server's request count reads this).
  std::uint64_t take_answered() { return std::exchange(answered_, 0); }
  // True while a request stream is open (its reply not yet fully sent).
  bool busy() const { return open_streams_ != 0; }
  // Requests answered whose responses are not all sent yet.
  std::size_t responding() const { return responding_; }
  // nghttp2's view: false for both once the session has said and heard goodbye (GOAWAY sent and
  // nothing left to send, or the peer's GOAWAY with no stream left): the connection may close.
  bool want_read() const;
  bool want_write() const;
  // A graceful stop begins (RFC 9113 §6.8): GOAWAY(NO_ERROR) with the highest stream id, so
  // the client opens no more streams while those it already sent are still read and answered.
  void notice_shutdown();
  // A graceful stop's last word: GOAWAY(NO_ERROR) naming the last stream processed, so the
  // client knows any later stream was not (and may send it again). Goes out with the next send().
  void go_away();

  // Runs of skipped stream ids remembered (a client that skips ids cannot grow our memory): past
  // this many, the oldest run is forgotten, and a HEADERS on it is left to nghttp2, which drops it.
  static constexpr std::size_t max_skipped_runs = 64;

 private:
  // A request stream's record, found through nghttp2's stream user data (no map of our own) and
  // reused once the stream closes: a steady load makes no record and, once warm, grows no string.
  struct stream {
    std::string method, path, body;
    std::string response;  // the JSON body being sent
    std::size_t sent = 0;
    bool answered = false;
    bool answered_early = false;  // answered (413) while the client was still sending its body
  };
  struct callbacks;  // nghttp2's callbacks, in the .cpp

  // Strings longer than this are freed, not kept, when their record goes back to the pool: a few
  // large bodies must not pin their memory on every connection that once saw one.
  static constexpr std::size_t max_kept_capacity = 4096;

  // False (and the session terminated with PROTOCOL_ERROR) when `stream_id` is a HEADERS on a
  // stream id the client skipped; otherwise records it as opened when it is a new one.
  bool admit_headers(std::int32_t stream_id);
  stream* open_stream();
  void close_stream(stream* st);
  void respond(std::int32_t stream_id, stream& st, const http::api_response& answer);

  session_ptr session_;
  std::size_t max_body_;
  std::vector<std::unique_ptr<stream>> records_;  // every record made (stable addresses)
  std::vector<stream*> free_records_;
  std::size_t open_streams_ = 0;
  std::size_t responding_ = 0;  // answered, response not all sent
  http::api_response answer_;  // reused by every request
  std::uint64_t answered_ = 0;
  // Client stream ids, which only grow (RFC 9113 §5.1.1): the highest opened, and the runs of ids
  // it skipped, [first, last] in increasing order. A client that opens 1, 3, 5... skips nothing.
  std::int32_t highest_opened_ = -1;  // so that 1 skips nothing
  std::vector<std::pair<std::int32_t, std::int32_t>> skipped_;
};

}  // namespace wirebench::http2
