// `grpc-stream`, `grpc-batch` and `connect-stream`: calls as messages on one bidirectional stream
// per connection (see grpc_client_codec.hpp), in gRPC's protocol or Connect's (its wire), on our
// HTTP/2 client core. Sans-IO; everything runs on the connection's thread, in the engine's
// encode()/produce()/decode() calls.
#include <deque>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "grpc_call_stream.hpp"
#include "grpc_client_codec.hpp"
#include "grpc_gzip.hpp"
#include "grpc_message.hpp"
#include "protobuf_log.hpp"
#include "proto/echo.pb.h"
#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/status_error.hpp"

namespace wirebench::grpc_wire {
namespace {

namespace pb = ::wirebench::echo;
using http2::client_stream;

class grpc_stream_client_codec final : public http2::client_core {
 public:
  grpc_stream_client_codec(const grpc_client_config& config, std::size_t batch)
      : client_core(config.max_message_bytes + 5),
        wire_(*config.wire),
        authority_(config.authority),
        batch_(batch),
        max_message_(config.max_message_bytes),
        end_flag_(wire_.end_flag()) {
    drop_protobuf_parse_complaints();  // a lying server must not be able to flood our stderr
    using http2::static_header;
    headers_ = {static_header(":method", "POST"), static_header(":scheme", config.https ? "https" : "http"),
                static_header(":path", batch > 1 ? "/wirebench.echo.Echo/GreetBatchStream"
                                                 : "/wirebench.echo.Echo/GreetStream"),
                static_header(":authority", authority_)};
    wire_.request_headers(true, message_format::proto, {}, headers_);  // no timeout: per call, the engine's
  }

  // The stream's requests may not be sent again: a call is never reported as not processed.
  bool may_refuse() const override { return false; }
  // gRPC has no way to withdraw one message of a stream: the engine forgets the call, and its
  // reply, if it comes, is counted late.
  bool cancel(std::uint32_t, gather_queue&) override { return false; }

  std::error_code encode(std::uint32_t id, std::string_view name, gather_queue&) override {
    grpc_call_stream& s = stream();
    if (batch_ > 1) {  // packed in produce(), with the rest of this loop turn's calls
      if (queued_ == pending_.size()) pending_.emplace_back();
      pending_[queued_].first = id;
      pending_[queued_++].second.assign(name);
      return {};
    }
    request_.set_id(id);
    request_.mutable_name()->assign(name.data(), name.size());
    append_message(s, request_);
    return {};
  }

  std::error_code produce(gather_queue& out) override {
    if (queued_ != 0 && stream_ != nullptr) pack_batches(*stream_);
    queued_ = 0;
    return client_core::produce(out);
  }

  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue& out,
                     std::error_code& error) override {
    texts_used_ = 0;  // the last decode's replies have been read
    const std::size_t consumed = client_core::decode(data, into, out, error);
    if (!error && wrong_reply_) error = errc::wrong_reply;
    // The server takes no new stream: ours ends its side, so that the server can finish it once
    // the calls on it are answered; later calls go to the engine's new connection.
    if (going_away() && stream_ != nullptr && !stream_->request_closed) {
      stream_->request_closed = true;
      request_grew(*stream_);
      // Now: nothing else may be written on this connection to carry the END_STREAM.
      if (const std::error_code ec = client_core::produce(out); ec && !error) error = ec;
    }
    return consumed;
  }

  std::string failure() const override { return failure_; }

 private:
  std::unique_ptr<client_stream> make_stream() override {
    return std::make_unique<grpc_call_stream>();
  }
  void response_header(client_stream& s, std::string_view name, std::string_view value) override {
    static_cast<grpc_call_stream&>(s).read_header(wire_, name, value);
  }
  // Only the stream's record exists, and it is streaming: never judged as a whole.
  codec_reply reply_for(client_stream& s) override { return {s.call, errc::wrong_reply, {}}; }

  // The connection's stream, opened by the first call (or the first after the last ended).
  grpc_call_stream& stream() {
    if (stream_ != nullptr && !stream_->request_closed) return *stream_;
    auto& s = static_cast<grpc_call_stream&>(take_stream(std::numeric_limits<std::uint32_t>::max()));
    s.streaming = true;
    (void)submit(s, headers_);  // refused: stream_ended() comes with the next decode
    stream_ = &s;
    return s;
  }

  void append_message(grpc_call_stream& s, const google::protobuf::MessageLite& message) {
    message.SerializeToString(&scratch_);
    append_grpc_prefix(scratch_.size(), false, s.request);
    s.request.append(scratch_);
    request_grew(s);
  }

  void pack_batches(grpc_call_stream& s) {
    for (std::size_t next = 0; next < queued_;) {
      batch_request_.Clear();  // keeps its GreetRequest objects for the next batch
      for (std::size_t n = 0; n < batch_ && next < queued_; ++n, ++next) {
        pb::GreetRequest* r = batch_request_.add_requests();
        r->set_id(pending_[next].first);
        r->set_name(pending_[next].second);
      }
      append_message(s, batch_request_);
    }
  }

  // The stream's DATA: every whole message a reply (or a batch of them); in Connect's protocol the
  // end of stream last, and nothing after it.
  void response_data(client_stream& s, std::string_view bytes) override {
    auto& g = static_cast<grpc_call_stream&>(s);
    if (wrong_reply_) return;
    g.body.append(bytes);  // the message not yet whole (bounded by the decoder's limit)
    grpc_message_decoder decoder(max_message_);
    const std::span<const std::byte> body = as_bytes(std::string_view(g.body));
    std::size_t consumed = 0;
    while (!wrong_reply_ && consumed < body.size()) {
      if (g.end) {  // bytes after the end
        wrong_reply_ = true;
        break;
      }
      if (end_flag_ != 0 && (std::to_integer<std::uint8_t>(body[consumed]) & end_flag_)) {
        const auto used = read_end(g, body.subspan(consumed));
        if (used == 0) break;  // not whole yet
        consumed += used;
        continue;
      }
      const auto step = decoder.decode(body.subspan(consumed));
      if (step.status == decode_status::need_more) break;
      if (step.status != decode_status::frame) {
        wrong_reply_ = true;
        break;
      }
      consumed += step.consumed;
      std::string_view message = as_text(step.frame.bytes);
      if (step.frame.compressed) {  // gzip, as we accept
        if (g.encoding != "gzip" || gunzip(step.frame.bytes, max_message_, inflated_)) {
          wrong_reply_ = true;
          break;
        }
        message = inflated_;
      }
      read_replies(message);
    }
    g.body.erase(0, consumed);
  }

  // The end envelope at the start of `body` read into g.end (its bytes inflated as its flag
  // says): how many bytes it took, 0 when it is not whole yet.
  std::size_t read_end(grpc_call_stream& g, std::span<const std::byte> body) {
    if (body.size() < 5) return 0;
    const std::uint32_t length = std::to_integer<std::uint32_t>(body[1]) << 24 |
                                 std::to_integer<std::uint32_t>(body[2]) << 16 |
                                 std::to_integer<std::uint32_t>(body[3]) << 8 | std::to_integer<std::uint32_t>(body[4]);
    if (length > max_message_) {
      wrong_reply_ = true;
      return 0;
    }
    if (body.size() - 5 < length) return 0;
    std::string_view end = as_text(body.subspan(5, length));
    if (std::to_integer<std::uint8_t>(body[0]) & 0x01) {  // compressed as the messages are
      if (g.encoding != "gzip" || gunzip(body.subspan(5, length), max_message_, inflated_)) {
        wrong_reply_ = true;
        return 0;
      }
      end = inflated_;
    }
    g.end = wire_.read_end(end);
    return 5 + length;
  }

  void read_replies(std::string_view message) {
    const int size = static_cast<int>(message.size());
    if (batch_ == 1) {
      if (!reply_.ParseFromArray(message.data(), size)) wrong_reply_ = true;
      else deliver_reply(reply_);
      return;
    }
    if (!batch_reply_.ParseFromArray(message.data(), size)) {
      wrong_reply_ = true;
      return;
    }
    for (pb::GreetReply& r : *batch_reply_.mutable_replies()) deliver_reply(r);
  }

  void deliver_reply(pb::GreetReply& reply) {
    if (reply.id() > std::numeric_limits<std::uint32_t>::max()) {
      wrong_reply_ = true;
      return;
    }
    // Kept until the next decode(), in strings reused from decode to decode (a deque: a string
    // never moves, so the views handed out stay valid while more are added).
    if (texts_used_ == texts_.size()) texts_.emplace_back();
    std::string& text = texts_[texts_used_++];
    text.swap(*reply.mutable_greeting());
    deliver({static_cast<std::uint32_t>(reply.id()), {}, text});
  }

  // The stream closed: the calls still on it fail with why.
  std::error_code stream_ended(client_stream& s) override {
    auto& g = static_cast<grpc_call_stream&>(s);
    if (stream_ == &g) stream_ = nullptr;
    if (g.end && g.end->error) {  // an end that is not one
      failure_ = g.end->message;
      return g.end->error;
    }
    if (g.end && g.end->code != status_code::ok) {
      failure_ = g.end->message;
      return wire_.failed(g.end->code);
    }
    if (g.trailer_status && *g.trailer_status != status_code::ok) {
      failure_ = percent_decoded(g.message);
      return wire_.failed(*g.trailer_status);
    }
    if (g.status != 0 && g.status != 200) {
      failure_ = std::to_string(g.status) + " " + g.body.substr(0, 200);
      return unexpected_status(g.status);
    }
    failure_ = g.error != 0 ? "the server reset the stream" : "the server ended the stream";
    return errc::connection_closed;
  }

  const rpc_client_wire& wire_;
  std::string authority_;
  std::vector<nghttp2_nv> headers_;  // the stream's request headers (values: literals, authority_)
  std::size_t batch_;
  std::size_t max_message_;
  std::uint8_t end_flag_;  // the flag of an end envelope in the body (Connect's), or 0 (gRPC's)
  grpc_call_stream* stream_ = nullptr;  // the open stream's record (null: none yet, or ended)
  // grpc-batch: the calls encoded since the last produce(), the first queued_ entries (their
  // strings' capacity kept).
  std::vector<std::pair<std::uint32_t, std::string>> pending_;
  std::size_t queued_ = 0;
  std::deque<std::string> texts_;  // the replies' greetings, the first texts_used_ this decode
  std::size_t texts_used_ = 0;
  bool wrong_reply_ = false;
  std::string failure_;
  pb::GreetRequest request_;  // reused by every call
  pb::GreetBatch batch_request_;
  pb::GreetReply reply_;
  pb::GreetReplyBatch batch_reply_;
  std::string scratch_;   // a message serialized, before its prefix
  std::string inflated_;  // a compressed reply, inflated
};

}  // namespace

std::unique_ptr<client_codec> make_grpc_stream_client_codec(const grpc_client_config& config,
                                                            std::size_t batch) {
  return std::make_unique<grpc_stream_client_codec>(config, batch);
}

}  // namespace wirebench::grpc_wire
