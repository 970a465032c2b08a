#pragma once
// The Echo service's requests that are answered once they are whole (proto/echo.proto: Greet,
// handed out as the greet call; Get, Expand and Collect, answered here as Echo's fixtures),
// whatever HTTP version carries them and whatever dialect writes them (rpc_dialect.hpp): the
// gRPC server's HTTP/2 session and its HTTP/1.1 session both serve through it. The service is
// known under two names: ours (wirebench.echo.Echo) and the one article 003's echo-go speaks
// (echo.v1.Echo: Get, Expand, Collect, Update, with the same messages), so that a client built
// from either .proto calls this server unchanged. Sans-IO; one per connection (it keeps the
// protobuf messages and buffers its calls reuse).
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "grpc_status.hpp"
#include "rpc_dialect.hpp"
#include "proto/echo.pb.h"

namespace wirebench::grpc_wire {

class echo_service {
 public:
  /// The protobuf messages every call reuses (the streams' too).
  struct messages {
    ::wirebench::echo::GreetRequest greet_request;
    ::wirebench::echo::GreetReply greet_reply;
    ::wirebench::echo::GreetBatch greet_batch;
    ::wirebench::echo::GreetReplyBatch greet_reply_batch;
    ::wirebench::echo::EchoRequest echo_request;
    ::wirebench::echo::EchoResponse echo_response;
  };

  explicit echo_service(std::size_t max_message_bytes);
  ~echo_service();
  echo_service(const echo_service&) = delete;
  echo_service& operator=(const echo_service&) = delete;

  /// What a request's :path names: the method on the service under either of its names
  /// ("Greet"; nullopt for another service; a query, Connect's GET's, is not part of it), and
  /// whether by our name: only there are the greet methods (Greet, GreetStream,
  /// GreetBatchStream); echo.v1.Echo has the article's four. Read once per request.
  struct route {
    std::optional<std::string_view> method;
    bool ours = false;
  };
  static route route_of(std::string_view path);
  static std::optional<std::string_view> method_of(std::string_view path) { return route_of(path).method; }
  static bool ours(std::string_view path) { return route_of(path).ours; }
  /// Methods with no side effects, which Connect may call with GET: Greet and Get (declared so in
  /// proto/echo.proto: idempotency_level NO_SIDE_EFFECTS).
  static bool side_effect_free(std::string_view method) { return method == "Greet" || method == "Get"; }
  /// The bidirectional streams (Update, the greet streams): HTTP/2's alone.
  static bool bidirectional(std::string_view method) {
    return method == "Update" || method == "GreetStream" || method == "GreetBatchStream";
  }
  /// Expand and Collect: methods a streaming dialect frames as streams, though they are answered
  /// once the request is whole.
  static bool half_streaming(std::string_view method) { return method == "Expand" || method == "Collect"; }

  /// The one message of a unary request's `body` (unwrapped): the body itself when the dialect
  /// sends it bare, else its one envelope's, inflated when compressed; false with `code` and
  /// `why` set when it is not one.
  bool only_message(const rpc_dialect& dialect, const rpc_call& call, std::string_view body,
                    std::string_view& message, status_code& code, std::string& why);
  /// The bytes of one message as received, inflated when compressed; false with `code` and `why`
  /// set when they cannot be had.
  bool message_bytes(const rpc_dialect& dialect, const rpc_call& call, bool compressed,
                     std::span<const std::byte> bytes, std::string_view& message, status_code& code,
                     std::string& why);
  /// A Greet request's name (a view valid until the next call); false with `code`, `why` set.
  bool greet_name(const rpc_dialect& dialect, const rpc_call& call, std::string_view body,
                  std::string_view& name, status_code& code, std::string& why);
  /// Get, Expand or Collect answered: its replies appended to `response` as the dialect frames
  /// them; false with `code` and `why` set when it cannot be (an unknown method: unimplemented).
  bool answer_echo(std::string_view method, const rpc_dialect& dialect, const rpc_call& call,
                   std::string_view request, std::string& response, status_code& code, std::string& why);
  /// The GreetReply to a greet call, appended to `response` as the dialect frames a message.
  void append_greet_reply(const rpc_dialect& dialect, const rpc_call& call, std::string_view greeting,
                          std::string& response);

  messages& reused() { return *messages_; }
  std::size_t max_message() const { return max_message_; }
  /// A message serialized, before the dialect frames it (capacity kept).
  std::string& scratch() { return scratch_; }

 private:
  std::size_t max_message_;
  std::unique_ptr<messages> messages_;
  std::string scratch_;
  std::string inflated_;  // a compressed message, inflated
};

}  // namespace wirebench::grpc_wire
