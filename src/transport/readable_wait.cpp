#include "readable_wait.hpp"

#include <string>

#include <asio/version.hpp>

#include "wirebench/transport/read_wait_path.hpp"

namespace wirebench {

std::string_view read_wait_path() {
  static const std::string path = [] {
    const std::string asio = std::to_string(ASIO_VERSION / 100000) + "." +
                             std::to_string(ASIO_VERSION / 100 % 1000) + "." +
                             std::to_string(ASIO_VERSION % 100);
#ifdef WIREBENCH_READABLE_WAIT_ON_REACTOR
    return "reactor: asio " + asio + " epoll reactor, no system call per wait";
#else
    return "async_wait: asio " + asio + " (the fast path needs 1.22 on epoll), one epoll_ctl per wait";
#endif
  }();
  return path;
}

}  // namespace wirebench

#ifdef WIREBENCH_READABLE_WAIT_ON_REACTOR

#include <sys/epoll.h>

#include <asio/execution/context.hpp>
#include <asio/query.hpp>

namespace wirebench {
namespace {

// asio keeps a socket's reactor registration in basic_socket's protected impl_. A pointer to that
// member, taken where it is accessible, reads it from any socket without a cast.
struct socket_internals : stream_socket {
  static auto& of(stream_socket& s) { return (s.*(&socket_internals::impl_)).get_implementation(); }
};

// The epoll reactor hands a descriptor's events to perform_io through the descriptor's operation
// result (task_result_, protected), and they are still there while perform_io runs our perform().
struct operation_internals : asio::detail::operation {
  static unsigned events_of(asio::detail::reactor::per_descriptor_data descriptor) {
    // C-style: descriptor_state derives from operation privately.
    const auto* op = (const asio::detail::operation*)descriptor;  // NOLINT
    return op->*(&operation_internals::task_result_);
  }
};

// asio's record of the events a descriptor is registered for is private to descriptor_state, and
// asio writes it back to epoll whenever it changes the registration. An explicit instantiation
// may name a private member (C++20 [temp.spec.general]/6): that is how the wait adds EPOLLRDHUP.
using events_member = std::uint32_t asio::detail::epoll_reactor::descriptor_state::*;
events_member registered_events_member();
template <events_member member>
struct expose_registered_events {
  friend events_member registered_events_member() { return member; }
};
template struct expose_registered_events<&asio::detail::epoll_reactor::descriptor_state::registered_events_>;

}  // namespace

readable_wait::readable_wait(stream_socket& socket)
    : reactor_op(asio::error_code(), &readable_wait::perform, &readable_wait::complete),
      socket_(socket),
      reactor_(asio::use_service<asio::detail::reactor>(
          asio::query(socket.get_executor(), asio::execution::context))) {}

void readable_wait::start(std::shared_ptr<void> owner, readable_wait_ready ready) {
  owner_ = std::move(owner);
  ready_ = ready;
  ec_ = asio::error_code();
  events_ = 0;
  auto& impl = socket_internals::of(socket_);
  descriptor_ = impl.reactor_data_;
  // The first wait registers EPOLLRDHUP: asio's non-speculative start makes one EPOLL_CTL_MOD
  // with the registered events, which also reports readiness that is already there. Every later
  // change asio makes (EPOLLOUT for a write) keeps the flag.
  const bool register_end = !end_watched_ && descriptor_ != nullptr;
  if (register_end) {
    descriptor_->*registered_events_member() |= EPOLLRDHUP;
    end_watched_ = true;
  }
  // allow_speculative: the reactor calls perform() now, which says "not yet", and queues the
  // operation; for a read it then changes nothing in epoll. A closed socket completes it with
  // bad_descriptor.
  starting_ = true;
  reactor_.start_op(asio::detail::reactor::read_op, impl.socket_, impl.reactor_data_, this,
                    /*is_continuation=*/true, /*allow_speculative=*/!register_end);
  starting_ = false;
}

// Called by the reactor: once from start() (not an event), then on each readiness event, from
// perform_io with the descriptor's lock held.
asio::detail::reactor_op::status readable_wait::perform(asio::detail::reactor_op* base) {
  auto* wait = static_cast<readable_wait*>(base);
  if (wait->starting_) return not_done;
  wait->events_ = operation_internals::events_of(wait->descriptor_);
  return done;
}

// `scheduler` is null when the io_context destroys the operation unrun.
void readable_wait::complete(void* scheduler, asio::detail::operation* base,
                             const asio::error_code&, std::size_t) {
  auto* wait = static_cast<readable_wait*>(base);
  std::shared_ptr<void> owner = std::move(wait->owner_);  // may own this wait: nothing after
  if (scheduler != nullptr)
    wait->ready_(owner.get(), wait->ec_, (wait->events_ & (EPOLLRDHUP | EPOLLERR | EPOLLHUP)) != 0);
}

}  // namespace wirebench

#endif
