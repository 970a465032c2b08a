#pragma once
// The server side of one HTTP/2 connection (RFC 9113), sans-IO: nghttp2's server session with the
// greet routes behind it, as a server_codec. Plaintext bytes from the client go in through
// decode(), which hands out each greet call once its stream has ended (END_STREAM); the reply
// comes back through encode_reply(), and everything the server has to say comes out of produce().
// No socket, TLS, loop or server is involved, so tests and fuzzers drive it with byte strings; the
// codec host (server/codec_session.hpp) puts it on a connection (and TLS under it).
//
// The routes are HTTP/1.1's (http_common/greet_api): what is no greet call (404, 405, 400, a body
// over the limit: 413) is answered at once by the session itself and handed out as answered;
// every response carries date, a HEAD one no DATA frame. A call whose stream the client resets
// before its reply is dropped. nghttp2's flood protections stay on. On top of nghttp2 it enforces
// RFC 9113 §5.1.1: a HEADERS on a stream id the client skipped (implicitly closed when a higher one
// was opened) is a connection error PROTOCOL_ERROR; nghttp2 1.52 ignores it.
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
#include "wirebench/codec/server_codec.hpp"
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

class server_session : public server_codec {
 public:
  // Queues the server's SETTINGS (and the connection WINDOW_UPDATE): the first produce() has them.
  explicit server_session(const server_session_config& config);
  ~server_session() override;
  // nghttp2 holds `this` as its user data: the session stays where it was made.
  server_session(const server_session&) = delete;
  server_session& operator=(const server_session&) = delete;

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
  // The response to stream `key`'s call (nothing if the client has reset the stream since).
  void encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue& out) override;
  // Everything the session has to send now, appended to `out`. Returns errc::protocol_error on a
  // fatal nghttp2 error (what was appended before it stays).
  std::error_code produce(gather_queue& out) override { return send(out); }
  // A graceful stop begins (RFC 9113 §6.8): GOAWAY(NO_ERROR) with the highest stream id, so
  // the client opens no more streams while those it already sent are still read and answered.
  void going_away(gather_queue&) override { notice_shutdown(); }
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
  // A request whose stream ended, waiting to be handed out by decode(). A call keeps its
  // argument here: the client may reset the stream before decode() hands it out, and the call
  // is still one the server took (its reply is then dropped), whatever the reads' cut.
  struct ended_request {
    std::int32_t stream_id;
    bool call;  // false: answered already (404, 405, 400, 413)
    std::string name;
  };

  // Strings longer than this are freed, not kept, when their record goes back to the pool: a few
  // large bodies must not pin their memory on every connection that once saw one.
  static constexpr std::size_t max_kept_capacity = 4096;

  // False (and the session terminated with PROTOCOL_ERROR) when `stream_id` is a HEADERS on a
  // stream id the client skipped; otherwise records it as opened when it is a new one.
  bool admit_headers(std::int32_t stream_id);
  stream* open_stream();
  void close_stream(stream* st);
  void respond(std::int32_t stream_id, stream& st, const http::api_response& answer);
  void request_ended(std::int32_t stream_id, stream& st);

  session_ptr session_;
  std::size_t max_body_;
  std::vector<std::unique_ptr<stream>> records_;  // every record made (stable addresses)
  std::vector<stream*> free_records_;
  std::size_t open_streams_ = 0;
  std::size_t responding_ = 0;  // answered, response not all sent
  http::api_response answer_;  // reused by every request
  // In the order their streams ended; handed out from `next_ended_`, and cleared once all are
  // (a vector, not a deque: a steady load then allocates nothing).
  std::vector<ended_request> ended_;
  std::size_t next_ended_ = 0;
  std::string decoded_name_;         // greet_call's output, reused
  std::string handed_out_;           // the argument of the call decode() handed out last
  // Client stream ids, which only grow (RFC 9113 §5.1.1): the highest opened, and the runs of ids
  // it skipped, [first, last] in increasing order. A client that opens 1, 3, 5... skips nothing.
  std::int32_t highest_opened_ = -1;  // so that 1 skips nothing
  std::vector<std::pair<std::int32_t, std::int32_t>> skipped_;
};

}  // namespace wirebench::http2
