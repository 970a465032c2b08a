#pragma once
// Waiting for a drained socket to become readable, without a system call per wait.
//
// asio registers each socket with epoll once, edge-triggered, but its async_wait asks epoll again
// (EPOLL_CTL_MOD) on every call, so that bytes already there are reported: one system call per
// request on request-response traffic, which nginx and redis do not make (docs/PERFORMANCE.md).
// A reader that has drained the socket (EAGAIN, or a short read) needs no such check: anything
// that arrives later raises a new edge. So this wait is queued on asio's reactor as a read
// operation that the reactor first tries at once (its speculative path, which needs no epoll_ctl
// for reads): that try says "not yet", and the next readiness event completes it.
//
// A short read is "drained" only if no end of stream waits behind its bytes: when a peer's last
// bytes and its FIN (or RST) were all there when epoll reported them, they make one edge, recv
// returns the bytes alone, and no further edge comes. epoll says so in the event's flags
// (EPOLLRDHUP for a FIN, EPOLLERR and EPOLLHUP for a reset) if EPOLLRDHUP is registered, and this
// wait registers it (its first start) and passes the flags on (`end_flagged`): the reader then
// reads on until the read reports the end. nginx reads the same flag for the same reason.
//
// Rules for the caller: start() only right after a read that drained the socket, on an io_context
// run by one thread (so no epoll_wait runs between the drain and start()); one wait at a time.
// No library offers this: it is written against asio's epoll reactor (asio::detail, checked
// against asio 1.22's epoll_reactor::start_op and descriptor_state::perform_io); elsewhere it is
// asio's own async_wait, which re-checks readiness each time and needs none of this.
#include <cstdint>
#include <memory>
#include <system_error>

#include "wirebench/transport/connection.hpp"  // first: asio's detail headers need its own

#include <asio/detail/reactor.hpp>
#include <asio/detail/reactor_op.hpp>
#include <asio/version.hpp>

#if defined(ASIO_HAS_EPOLL) && !defined(ASIO_HAS_IO_URING_AS_DEFAULT) && ASIO_VERSION >= 102200 && \
    ASIO_VERSION < 102300
#define WIREBENCH_READABLE_WAIT_ON_REACTOR 1
#endif

namespace wirebench {

// Runs on the socket's io_context thread when the socket is readable, closed, or the wait was
// aborted (ec: operation_aborted once the socket is closed). `owner` is what start() was given;
// `end_flagged`: the event said the peer's end (or an error) is there, maybe behind the bytes.
using readable_wait_ready = void (*)(void* owner, std::error_code ec, bool end_flagged);

#ifdef WIREBENCH_READABLE_WAIT_ON_REACTOR

class readable_wait final : private asio::detail::reactor_op {
 public:
  explicit readable_wait(stream_socket& socket);

  // Keeps `owner` alive until `ready` has run (or the io_context is destroyed: then `ready`
  // never runs and `owner` is let go).
  void start(std::shared_ptr<void> owner, readable_wait_ready ready);

 private:
  static status perform(asio::detail::reactor_op* base);
  static void complete(void* scheduler, asio::detail::operation* base, const asio::error_code&,
                       std::size_t);

  stream_socket& socket_;
  asio::detail::reactor& reactor_;
  asio::detail::reactor::per_descriptor_data descriptor_ = nullptr;
  std::shared_ptr<void> owner_;
  readable_wait_ready ready_ = nullptr;
  std::uint32_t events_ = 0;  // the epoll event that completed the wait
  bool starting_ = false;     // inside start(): the reactor's first try is not an event
  bool end_watched_ = false;  // EPOLLRDHUP is in the socket's epoll registration
};

#else

class readable_wait {
 public:
  explicit readable_wait(stream_socket& socket) : socket_(socket) {}
  void start(std::shared_ptr<void> owner, readable_wait_ready ready) {
    socket_.async_wait(asio::socket_base::wait_read, [owner = std::move(owner), ready](std::error_code ec) {
      ready(owner.get(), ec, false);
    });
  }

 private:
  stream_socket& socket_;
};

#endif

}  // namespace wirebench
