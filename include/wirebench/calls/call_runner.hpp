#pragma once
// Where a server's calls run, for one connection: the codec host (server/codec_session.hpp)
// hands each decoded call to its runner and gets the reply back through a reply_writer. Two
// runners: request_dispatcher (a plain handler, inline or on the worker pool, with a service
// time) and coroutine_runner (a coroutine per call, cancellable). Connection thread only.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <system_error>

#include "wirebench/core/api.hpp"
#include "wirebench/transport/connection.hpp"

namespace wirebench {

/// One connection's calls (see above).
class WIREBENCH_API call_runner {
 public:
  /// Writes one reply on the connection, on its thread. `ok` false: `body` is the error's text.
  using reply_writer =
      std::function<void(connection& c, std::uint64_t key, bool ok, std::string&& body)>;

  virtual ~call_runner() = default;
  /// Starts one call; `key` is what its reply carries (request id, msgid). An error: the call
  /// cannot be told apart from one still running (the stream is lost).
  virtual std::error_code start(connection& c, std::uint64_t key, std::string_view request) = 0;
  /// A request the protocol answered itself: `bytes`, its whole encoded reply, go out in the
  /// request's turn (ordered: after every earlier reply) or at once.
  virtual void start_answered(connection& c, std::uint64_t key, std::string bytes) = 0;
  /// The reply for `key`, if not yet written, will not be.
  virtual void cancel(std::uint64_t key) = 0;
  /// Calls started whose replies are not yet back on the connection's thread.
  virtual std::size_t in_flight() const = 0;
  /// The connection is gone (on its thread): the calls still running will find nobody to answer.
  virtual void connection_closed() {}
};

}  // namespace wirebench
