#pragma once
// The gRPC server's HTTP/2 session: proto/echo.proto's Echo service (echo_service.hpp) on our
// HTTP/2 server core (../http2/h2_server_core.hpp), in gRPC (doc/PROTOCOL-HTTP2.md) and in each
// dialect registered beside it (rpc_dialect.hpp: Connect, gRPC-Web), chosen per request by its
// content type; rpc_server_codec.hpp puts it on a connection whose first bytes are HTTP/2's.
// Sans-IO. What follows says it in gRPC's terms; a dialect writes the same in its own.
//
// A request is POST /wirebench.echo.Echo/METHOD (or echo.v1.Echo's four) with content-type
// application/grpc[+proto|+json|;...] (no dialect's: HTTP 415 with a text body) and its messages
// in the body. Greet is handed out as the greet
// call (its name the argument; the reply the GreetReply's greeting); Get, Expand and Collect are
// answered by the codec itself once the request stream has ended (they are the Echo service's
// fixtures, not the measured call); the bidirectional ones are streams (below). Any other method
// is UNIMPLEMENTED. Errors are Trailers-Only responses (HTTP 200, grpc-status and a
// percent-encoded grpc-message in the one HEADERS frame): INTERNAL for a malformed prefix, a
// message protobuf cannot parse or gzip cannot inflate, or a compressed message without an
// encoding; RESOURCE_EXHAUSTED for a message over the receive limit (the request body's bound;
// inflated, the same limit); UNIMPLEMENTED, with grpc-accept-encoding, for a grpc-encoding other
// than identity and gzip. Replies are not compressed (identity is always allowed). A grpc-timeout
// sets the call's deadline: a reply encoded after it is DEADLINE_EXCEEDED instead.
//
// The bidirectional methods are streams (grpc_server_streams.cpp): their messages are decoded as
// they arrive, and the response stays open. Each GreetStream message is a greet call, each
// request of a GreetBatchStream message one too (keyed by a slot that remembers the stream and
// the request's id, not by the stream id); the replies go out as they come, in any order, each
// GreetReply carrying its request's id; a GreetBatchStream's replies encoded in one loop turn
// share one GreetReplyBatch. Update answers each message itself, and so does server reflection
// (grpc.reflection.v1 and v1alpha, grpc_reflection.hpp). The stream ends with
// grpc-status 0 once the client has ended its side and every call on it is answered; a bad
// message, a failed call or a passed deadline ends it with that status in the trailers (and
// RST_STREAM if the client is still sending). A client that sends and does not read is held back
// by its stream's window (server_session_config::max_unsent_stream_bytes).
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "echo_service.hpp"
#include "grpc_status.hpp"
#include "rpc_dialect.hpp"
#include "../http2/h2_server_core.hpp"

namespace wirebench::grpc_wire {

class reflection_service;

struct grpc_server_config {
  http2::server_session_config http2;  // its max_body_bytes is set from max_message_bytes
  std::size_t max_message_bytes = 4 * 1024 * 1024;  // a longer one is RESOURCE_EXHAUSTED
};

class grpc_server_session : public http2::server_core {
 public:
  explicit grpc_server_session(const grpc_server_config& config);
  ~grpc_server_session() override;

  // The GreetReply to stream `key`'s Greet call, then grpc-status 0; ok false: UNKNOWN with
  // `body` as the message. A call on a stream (key >= first_slot_key): its GreetReply on that
  // stream. Nothing if the client has reset the stream since.
  void encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue& out) override;
  // The GreetReplyBatch of each batch stream's replies encoded since, then what nghttp2 sends.
  std::error_code produce(gather_queue& out) override;
  // The earliest grpc-timeout deadline of a call still owed its reply (a unary call, or a
  // stream's), and DEADLINE_EXCEEDED for each past `now`: a Trailers-Only answer, or a stream's
  // trailers. The host asks when calls run off its thread, so the client hears at the deadline,
  // not when the work is done; the late reply is dropped.
  std::chrono::steady_clock::time_point next_deadline() override;
  void expire(std::chrono::steady_clock::time_point now, gather_queue& out) override;
  // A graceful stop's last read: nothing the clients send is read after it, so each open stream
  // is taken as ended: it ends with grpc-status 0 once its calls are answered (and
  // RST_STREAM(NO_ERROR) tells a client still sending to stop), rather than at the grace's end.
  void last_read(gather_queue& out) override;

  // Calls on streams are keyed by slot: the key is first_slot_key + the slot's index (a stream id
  // is below 2^31).
  static constexpr std::uint64_t first_slot_key = std::uint64_t{1} << 32;

 private:
  struct grpc_stream;  // the record: server_stream and the gRPC headers
  // A call on a stream, waiting for its reply.
  struct call_slot {
    std::int32_t stream_id = 0;
    std::uint64_t request_id = 0;  // GreetRequest.id, echoed in the GreetReply
  };
  std::unique_ptr<http2::server_stream> make_stream() override;
  void request_header(http2::server_stream& st, std::string_view name,
                      std::string_view value) override;
  void request_headers_ended(std::int32_t stream_id, http2::server_stream& st) override;
  void request_data(std::int32_t stream_id, http2::server_stream& st,
                    std::string_view bytes) override;
  void request_ended(std::int32_t stream_id, http2::server_stream& st) override;
  void body_too_large(std::int32_t stream_id, http2::server_stream& st) override;

  // The request's dialect (by its headers), and what the dialect reads of it, its deadline set
  // from its timeout: ok, the status it is refused with (`why` its message), or unknown when no
  // dialect serves it. Once per request: a streaming request is accepted when its headers end.
  status_code accept(grpc_stream& st, bool streaming, std::string& why);
  // request_header's slow path, apart so that the common one (a header no dialect reads) stays
  // a few instructions: a header a dialect reads, into its slot.
  [[gnu::noinline]] void keep_header(grpc_stream& st, std::string_view name, std::string_view value);
  // Streams (grpc_server_streams.cpp): each message of a streaming request, a call handed out
  // under a new slot, the end of a streaming request, a call's reply, and the stream's end.
  void stream_message(std::int32_t stream_id, grpc_stream& st, std::string_view bytes);
  void hand_out_on_stream(std::int32_t stream_id, grpc_stream& st, std::uint64_t request_id,
                          std::string_view name);
  void stream_ended(std::int32_t stream_id, grpc_stream& st);
  void encode_stream_reply(std::uint64_t key, bool ok, std::string_view body);
  void flush_batch(std::int32_t stream_id, grpc_stream& st);
  void finish_if_done(std::int32_t stream_id, grpc_stream& st);
  void fail_stream(std::int32_t stream_id, grpc_stream& st, status_code code,
                   std::string_view why);

  // Appends one message to the stream's response, as its dialect frames it.
  void append_message(grpc_stream& st, std::string_view bytes);
  // The response with its messages, ended with status OK as the dialect ends one.
  void respond_ok(std::int32_t stream_id, grpc_stream& st);
  // The response to a request that fails before any message: the dialect's error (gRPC's
  // Trailers-Only, Connect's HTTP status and JSON).
  void respond_error(std::int32_t stream_id, grpc_stream& st, status_code code,
                     std::string_view message);
  // head_ as nghttp2's headers (valid until the next call).
  std::span<const nghttp2_nv> head_nv();

  echo_service service_;  // the Echo service's whole requests, and the messages streams reuse
  std::string unwrapped_;  // a text dialect's request, decoded
  rpc_response_head head_;  // a response's head, as its dialect writes it (capacity kept)
  char status_text_[8] = {};
  std::span<const std::string_view> header_names_ = read_header_names();
  std::uint64_t header_lengths_ = 0;  // bit n: some name in header_names_ is n bytes long
  std::array<nghttp2_nv, 8> head_nv_{};  // :status, content-type, and at most 6 a dialect adds
  std::vector<call_slot> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<std::int32_t> batching_;  // batch streams with replies not yet in a message
  std::unique_ptr<reflection_service> reflection_;  // made by the connection's first use of it
  // Streams with a deadline whose reply (or end) is owed: pruned as they are answered or close.
  std::vector<std::pair<std::chrono::steady_clock::time_point, std::int32_t>> deadlines_;
  std::vector<std::int32_t> streams_;  // streaming requests (closed ones pruned as it grows)
};

}  // namespace wirebench::grpc_wire
