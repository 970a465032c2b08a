#pragma once
// Accepts stream connections on one endpoint and hands each socket, already placed on the next
// io_pool thread, to a callback. TCP sockets get TCP_NODELAY (request-response traffic).
// When the process runs out of descriptors (EMFILE/ENFILE) accepting pauses briefly instead of
// spinning, and the failures are counted.
#include <atomic>
#include <functional>
#include <memory>

#include <asio/generic/stream_protocol.hpp>
#include <asio/steady_timer.hpp>

#include "wirebench/core/api.hpp"
#include "wirebench/transport/connection.hpp"
#include "wirebench/transport/endpoint.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench {

/// Accepts stream connections on one endpoint (see above).
class WIREBENCH_API listener {
 public:
  /// Called on the thread the socket was placed on.
  using accept_handler = std::function<void(stream_socket)>;

  /// Binds and listens; throws std::system_error naming the endpoint when that fails (start-up).
  /// A stale Unix socket file (nobody listening) is replaced; a live one is an error.
  listener(io_pool& pool, const endpoint& where, accept_handler on_accept, int backlog = 4096);
  /// Stops accepting (close()).
  ~listener();

  /// The endpoint it listens on (with the kernel's port when bound to port 0).
  endpoint local_endpoint() const { return local_; }
  /// Stops accepting and removes a Unix socket file. Any thread; idempotent. On the pool's own
  /// threads it returns once done; on a caller's io_context (io_pool::external) it asks the loop
  /// and returns at once.
  void close();
  /// Accepts that failed (e.g. out of file descriptors). Any thread.
  std::uint64_t accept_errors() const;

 private:
  struct state;
  io_pool& pool_;
  std::shared_ptr<state> state_;  // held by the accept loop too: it may outlive the listener
  endpoint local_;
};

/// Connects to `where` on `ctx`; `done(ec, socket)` runs on ctx's thread exactly once. A connect
/// that has not finished after `timeout` fails with errc::connect_failed.
WIREBENCH_API void async_connect(asio::io_context& ctx, const endpoint& where, duration timeout,
                                 std::function<void(std::error_code, stream_socket)> done);

/// What a call reports when its connection could not be made: running out of file descriptors is
/// its own outcome (too_many_files_open), anything else is errc::connect_failed.
WIREBENCH_API std::error_code connect_error(std::error_code ec);

/// Sets the options we want on every stream socket (TCP_NODELAY for TCP).
WIREBENCH_API void tune_socket(stream_socket& socket);

}  // namespace wirebench
