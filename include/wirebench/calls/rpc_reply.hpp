#pragma once
/// \file
/// What an RPC handler (mux_rpc_session) answers: a reply body, or an error the client receives
/// as an error reply (errc::remote_error, with the text as its reason).
#include <string>
#include <system_error>
#include <utility>

namespace wirebench {

/// A handler's answer (see above).
struct rpc_reply {
  /// The reply's body; with `error` set, the error reply's text (empty: error.message()).
  std::string body;
  /// Empty: a reply. Set: an error reply.
  std::error_code error;

  /// An empty reply.
  rpc_reply() = default;
  /// A reply: implicit, so that a handler may `co_return "text";` or a std::string.
  rpc_reply(std::string reply) : body(std::move(reply)) {}  // NOLINT(google-explicit-constructor)
  /// A reply, from a C string (implicit, like the std::string one).
  rpc_reply(const char* reply) : body(reply) {}             // NOLINT(google-explicit-constructor)
  /// An error reply, without throwing: `co_return rpc_reply(errc::rejected, "no such key");`.
  explicit rpc_reply(std::error_code failure, std::string text = {})
      : body(std::move(text)), error(failure) {}

  /// The text an error reply carries.
  std::string error_text() const { return body.empty() ? error.message() : body; }
};

}  // namespace wirebench
