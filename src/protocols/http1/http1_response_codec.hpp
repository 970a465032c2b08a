#pragma once
// What every HTTP/1.1 client codec does with what it reads, whatever it sends (REST requests,
// Connect and gRPC-Web calls): the responses, read by llhttp in order (replies in request order),
// each turned into its call's reply by the derived codec. A response that says Connection: close
// ends the connection: the engine dials a new one and sends the requests pipelined behind it
// there (the server never read them). A close between responses, the race every keep-alive client
// meets when a server drops an idle connection as a request goes out, leaves requests the server
// never read: idempotent ones may go again (RFC 9112 §9.3.1), others never. A response the server
// delimits by closing (neither Content-Length nor chunked) ends with the stream. Sans-IO.
#include <cstddef>

#include "http1_parser.hpp"
#include "wirebench/codec/client_codec.hpp"

namespace wirebench::http1 {

class response_codec : public client_codec {
 public:
  reply_order order() const override { return reply_order::in_order; }
  bool may_refuse() const override { return true; }
  std::size_t decode(std::span<const std::byte> data, decoded& into, gather_queue& out,
                     std::error_code& error) final;
  void end_of_stream(bool clean, decoded& into) final;
  bool mid_reply() const final { return !closing_ && parser_.mid_message(); }
  std::size_t max_read_bytes() const override { return 64 * 1024; }

 protected:
  // `idempotent`: the requests may be sent again after a close between responses.
  response_codec(const limits& l, bool keep_headers, bool idempotent)
      : parser_(parser::kind::response, l, keep_headers), idempotent_(idempotent) {}

  // The reply to response `m` (the oldest request's): its views valid until the next decode.
  virtual codec_reply reply_to(message& m) = 0;
  // A decode begins: what the replies of the last one viewed may be reused.
  virtual void replies_read() {}
  // A response said Connection: close: the requests behind it are not answered here.
  virtual void closing() {}
  // A response's body as far as it has come: after each read while it arrives (headers in, body
  // partial), and once whole before reply_to. An error fails the connection now, rather than when
  // the body is whole (a frame its start declares too large); judged whole too, so that how the
  // reads cut the response makes no difference.
  virtual std::error_code judge_arriving(const message& m) { (void)m; return {}; }

  parser& responses() { return parser_; }
  void set_idempotent(bool idempotent) { idempotent_ = idempotent; }

 private:
  void begin_decode();
  void take_responses(decoded& into, std::error_code& error);

  parser parser_;
  bool idempotent_;
  bool closing_ = false;  // a response said Connection: close: the codec reads no more
};

}  // namespace wirebench::http1
