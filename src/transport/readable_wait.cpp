#include "readable_wait.hpp"

#ifdef WIREBENCH_READABLE_WAIT_ON_REACTOR

#include <asio/execution/context.hpp>
#include <asio/query.hpp>

namespace wirebench {
namespace {

// asio keeps a socket's reactor registration in basic_socket's protected impl_. A pointer to that
// member, taken where it is accessible, reads it from any socket without a cast.
struct socket_internals : stream_socket {
  static auto& of(stream_socket& s) { return (s.*(&socket_internals::impl_)).get_implementation(); }
};

}  // namespace

readable_wait::readable_wait(stream_socket& socket)
    : reactor_op(asio::error_code(), &readable_wait::perform, &readable_wait::complete),
      socket_(socket),
      reactor_(asio::use_service<asio::detail::reactor>(
          asio::query(socket.get_executor(), asio::execution::context))) {}

void readable_wait::start(std::shared_ptr<void> owner, on_ready ready) {
  owner_ = std::move(owner);
  ready_ = ready;
  ec_ = asio::error_code();
  auto& impl = socket_internals::of(socket_);
  // allow_speculative: the reactor calls perform() now, which says "not yet", and queues the
  // operation; for a read it then changes nothing in epoll. A closed socket completes it with
  // bad_descriptor.
  starting_ = true;
  reactor_.start_op(asio::detail::reactor::read_op, impl.socket_, impl.reactor_data_, this,
                    /*is_continuation=*/true, /*allow_speculative=*/true);
  starting_ = false;
}

// Called by the reactor: once from start() (not an event), then on each readiness event.
asio::detail::reactor_op::status readable_wait::perform(asio::detail::reactor_op* base) {
  return static_cast<readable_wait*>(base)->starting_ ? not_done : done;
}

// `scheduler` is null when the io_context destroys the operation unrun.
void readable_wait::complete(void* scheduler, asio::detail::operation* base,
                             const asio::error_code&, std::size_t) {
  auto* wait = static_cast<readable_wait*>(base);
  std::shared_ptr<void> owner = std::move(wait->owner_);  // may own this wait: nothing after
  if (scheduler != nullptr) wait->ready_(owner.get(), wait->ec_);
}

}  // namespace wirebench

#endif
