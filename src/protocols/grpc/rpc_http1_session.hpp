#pragma once
// The gRPC server's HTTP/1.1 side (RFC 9112 over llhttp: ../http1/http1_parser.hpp), for the
// dialects HTTP/1.1 can carry (Connect, gRPC-Web; rpc_dialect.hpp) on the port that also serves
// h2c (rpc_server_codec.hpp tells them apart): keep-alive, requests pipelined, Content-Length or
// chunked request bodies, each answered once whole through the Echo service (echo_service.hpp),
// the responses in request order with a Content-Length. What HTTP/1.1 cannot carry is 505, as
// connect-go answers: gRPC itself (it needs HTTP/2's trailers), and the bidirectional methods
// (Update, the greet streams, reflection), whose requests and replies would have to cross. A
// request no dialect serves is 415. Sans-IO.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "echo_service.hpp"
#include "rpc_dialect.hpp"
#include "../http1/http1_parser.hpp"
#include "wirebench/codec/server_codec.hpp"

namespace wirebench::grpc_wire {

class rpc_http1_session final : public server_codec {
 public:
  explicit rpc_http1_session(std::size_t max_message_bytes);

  // Replies go out in request order, but the session orders them itself (it holds answers until
  // the calls before them are answered, and hands them out through produce()), so that one host
  // serves it and the HTTP/2 session alike (rpc_server_codec.hpp).
  bool ordered() const override { return false; }
  std::size_t decode(std::span<const std::byte> data, server_request& into, gather_queue& out,
                     std::error_code& error) override;
  // A greet call's reply: its response, sent once those before it are.
  void encode_reply(std::uint64_t key, bool ok, std::string_view body, gather_queue& out) override;
  // The responses whose turn has come.
  std::error_code produce(gather_queue& out) override;
  // A graceful stop: the answer to the last request read carries Connection: close.
  void going_away(gather_queue&) override { closing_ = true; }
  // Responses made and not yet handed to produce() (a call's awaiting its reply is not one).
  std::size_t replies_in_flight() const override {
    return static_cast<std::size_t>(std::count_if(owed_.begin(), owed_.end(), [](const owed& o) { return o.ready; }));
  }
  bool mid_request() const override { return parser_.mid_message(); }
  std::size_t max_read_bytes() const override { return 64 * 1024; }
  // A call's Connect-Timeout-Ms or grpc-timeout: at the deadline its answer is deadline_exceeded.
  std::chrono::steady_clock::time_point next_deadline() override;
  void expire(std::chrono::steady_clock::time_point now, gather_queue& out) override;

 private:
  // A response owed, in request order: ready with its bytes, or a greet call's awaiting its reply.
  struct owed {
    std::uint64_t key = 0;
    bool ready = false;
    bool keep_alive = true;
    std::string bytes;
    // A call's: how to write its reply.
    const rpc_dialect* dialect = nullptr;
    rpc_call call;
    std::string content_type;
    std::vector<std::string> values;
    std::optional<std::chrono::steady_clock::time_point> deadline;
  };

  // A new record at the queue's end, reusing one sent before (a steady load allocates none).
  owed& push_owed();
  void take(http1::message& m, server_request& into, std::error_code& error);
  // The response to `o`'s request: the dialect's head and body, as HTTP/1.1 writes them.
  void respond(owed& o, const rpc_request& request, status_code code, std::string_view message,
               bool with_messages);
  rpc_request request_of(const owed& o) const;

  echo_service service_;
  http1::parser parser_;
  std::span<const std::string_view> header_names_ = read_header_names();
  std::deque<owed> owed_;
  std::vector<owed> spare_;  // records sent, their strings' capacity kept
  std::uint64_t next_key_ = 1;
  bool closing_ = false;
  bool spoke_http1_ = false;  // a whole HTTP/1.1 request has come on this connection
  bool answered_early_ = false;  // the request arriving was answered at its headers
  std::string name_;       // a call's argument, valid until the next decode
  std::string body_;       // a response's body, before its head (capacity kept)
  std::string unwrapped_;  // a text dialect's request, decoded
  rpc_response_head head_;
};

}  // namespace wirebench::grpc_wire
