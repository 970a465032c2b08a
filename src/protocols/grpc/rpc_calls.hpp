#pragma once
// What the RPC client codecs (grpc_client_codec.hpp: HTTP/2; rpc_http1_client_codec.hpp:
// HTTP/1.1) share, whatever HTTP carries the call: the greet call, or the user's (their methods
// from a .proto or reflection, all four shapes, lists in turn, mixes, placeholders, metadata),
// each call's body and headers as the wire writes them (rpc_client_wire.hpp), and the verdict on
// its response (messages inflated, counted, read as the greeting or as JSON). Sans-IO; one per
// connection, used on its thread.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <nghttp2/nghttp2.h>

#include "grpc_client_codec.hpp"
#include "rpc_client_wire.hpp"
#include "wirebench/codec/client_codec.hpp"
#include "wirebench/protocols/call_placeholder.hpp"
#include "proto/echo.pb.h"

namespace wirebench::grpc_wire {

class rpc_calls : private message_sink {
 public:
  explicit rpc_calls(const grpc_client_config& config);

  /// One call about to go: which request of the mix it is (0 for the greet call), its :path, and
  /// its headers after the pseudo-headers (the wire's, then the metadata; values live here).
  struct call {
    std::size_t request = 0;
    std::string_view path;
    const std::vector<nghttp2_nv>* headers = nullptr;
  };
  /// The call `name` names (a request of the mix by its payload, or the greet call's name), its
  /// body into `body` (replaced); invalid_argument when it names no request.
  std::error_code prepare(std::string_view name, std::string& body, call& into);

  /// The verdict on call `id`'s response to request `request`: the reply (its text in `text`,
  /// which the caller keeps until the reply is read) or the error it failed with (its why in
  /// `why`, kept likewise).
  codec_reply verdict(std::uint32_t id, std::size_t request, const rpc_response& response,
                      std::string& text, std::string& why);

  const rpc_client_wire& wire() const { return wire_; }
  /// The largest response body a call of `config` may have: one message (and the wire's end), or
  /// with a server-streaming user call up to 64.
  static std::size_t max_body_of(const grpc_client_config& config);
  /// True when every request of the mix may be sent again with the same effect (none may: RPCs
  /// are POSTs).
  static constexpr bool idempotent = false;

 private:
  // A user call's requests, laid out once per connection: each call's body (its messages, each
  // enveloped, or the one bare message where the wire sends it bare), with the placeholders found
  // once. Their placeholders keep their length, so each call's copy only gets fresh values. And
  // the call's headers, made once.
  struct request_template {
    const grpc_dynamic_method* method;
    std::vector<std::string> bodies;          // one per call in turn (usually one)
    std::vector<placeholder_filler> fillers;  // one per body
    std::size_t next = 0;                     // the body the next call sends
    std::vector<std::pair<std::string, std::string>> metadata;  // as sent
    std::vector<nghttp2_nv> headers;
  };

  std::vector<nghttp2_nv> headers_for(bool streaming, const std::vector<std::pair<std::string, std::string>>& metadata);
  void append_message(bool streaming, std::string_view message, std::string& body) const;
  // message_sink: one reply message of the response verdict reads.
  bool take(std::string_view bytes, bool compressed) override;

  const rpc_client_wire& wire_;
  message_format format_;
  std::size_t max_message_;
  std::vector<grpc_user_request> requests_;  // the user's calls (they own the methods)
  std::vector<request_template> templates_;  // theirs, in order
  std::string raw_path_;                     // a raw call's path ("": not raw)
  std::vector<std::pair<std::string, std::string>> raw_metadata_;  // a raw call's, as sent
  std::string timeout_;      // the wire's timeout header's value, "" for none
  std::vector<nghttp2_nv> call_headers_;  // the greet (or raw) call's headers
  ::wirebench::echo::GreetRequest request_;  // reused by every call
  ::wirebench::echo::GreetReply reply_;
  std::string scratch_;   // a request serialized, before its framing
  std::string inflated_;  // a compressed reply, inflated
  std::string wrapped_;   // a body as a text wire wraps or unwraps it
  // The response verdict is reading, for take().
  std::string_view encoding_;
  std::string* text_ = nullptr;
  const grpc_dynamic_method* method_ = nullptr;
  bool many_ = false;
  std::size_t count_ = 0;
  std::string_view why_;
};

/// The :path of the greet call.
inline constexpr std::string_view greet_path = "/wirebench.echo.Echo/Greet";

}  // namespace wirebench::grpc_wire
