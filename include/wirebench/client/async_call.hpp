#pragma once
/// \file
/// async_call(engine, request, deadline or timeout, token): a client_engine call with any Asio
/// completion token: a callback, asio::use_awaitable, asio::use_future, ...
///
/// Completion signature: `void(std::error_code, std::string reply)`. The reply is copied out of
/// the read buffer (the engine's callback form, client_engine::async_call, only lends a view and
/// stays the zero-copy path). One allocation per call, with the handler's associated allocator,
/// holds the handler; it is freed before the handler runs.
///
/// Where the handler runs, as for Asio's own operations: on its associated executor (a
/// coroutine's, a strand, an io_context bound with asio::bind_executor), whose work is counted
/// until then; never inside the call that started the operation (a call that fails at once, as
/// on a closed engine, is posted). A handler with no executor of its own (a plain callback) runs
/// on the engine's thread that completed the call, like the engine's callback form; on a closed
/// engine, which has no threads, it is posted to asio::system_executor. Errors are the engine's
/// (timeout, canceled, connection_closed, rejected, remote_error, ...; see client_engine.hpp).
///
/// Cancellation: a cancellation slot on the token (asio::bind_cancellation_slot, a coroutine's
/// cancellation state) cancels the call as call_handle::cancel() does: before it is sent it never
/// reaches the server; after, it completes with errc::canceled at once (== std::errc::
/// operation_canceled). The slot must be emitted on the handler's executor, as Asio requires of
/// every cancellation slot.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

#include <asio/associated_allocator.hpp>
#include <asio/associated_cancellation_slot.hpp>
#include <asio/associated_executor.hpp>
#include <asio/async_result.hpp>
#include <asio/bind_allocator.hpp>
#include <asio/dispatch.hpp>
#include <asio/executor_work_guard.hpp>
#include <asio/post.hpp>
#include <asio/system_executor.hpp>

#include "wirebench/client/client_engine.hpp"

namespace wirebench {

namespace detail {

/// The token call the calling thread is starting, while it is inside the engine's async_call: a
/// completion that finds itself here runs inside the initiating call and must be posted.
inline thread_local const void* initiating_token_call = nullptr;

/// One token call: the handler, kept until the engine completes the call (exactly once, on an
/// engine thread, or on the initiating thread when the engine is closed). Allocated with the
/// handler's allocator; the engine's completion holds only a pointer to it (stored inline, no
/// second allocation).
template <class Handler>
class token_call {
  using handler_executor = asio::associated_executor_t<Handler, asio::system_executor>;
  // A plain callback has no executor of its own: it runs where the engine completes the call.
  static constexpr bool has_executor = !std::is_same_v<handler_executor, asio::system_executor>;
  using allocator = typename std::allocator_traits<
      asio::associated_allocator_t<Handler>>::template rebind_alloc<token_call>;

 public:
  /// Makes one with the handler's allocator.
  static token_call* make(Handler&& handler) {
    allocator a(asio::get_associated_allocator(handler));
    token_call* p = std::allocator_traits<allocator>::allocate(a, 1);
    try {
      std::allocator_traits<allocator>::construct(a, p, std::move(handler));
    } catch (...) {
      std::allocator_traits<allocator>::deallocate(a, p, 1);
      throw;
    }
    return p;
  }

  explicit token_call(Handler&& handler)
      : handler_(std::move(handler)), work_(asio::get_associated_executor(handler_)) {}

  /// The engine's completion: a pointer (trivially copyable, held inline by call_completion).
  call_completion completion() {
    return [self = this](std::error_code ec, std::string_view reply) { self->complete(ec, reply); };
  }

  /// Connects the token's slot, if it has one, to `handle` (from async_call_cancelable).
  bool wants_cancellation() const {
    return asio::get_associated_cancellation_slot(handler_).is_connected();
  }
  void connect(client_engine::call_handle handle) {
    asio::get_associated_cancellation_slot(handler_).assign(
        [handle](asio::cancellation_type) mutable { handle.cancel(); });
  }

 private:
  // Runs once, on the thread that completes the call. The reply is a view into the read buffer,
  // valid only now: copied.
  void complete(std::error_code ec, std::string_view reply) {
    const bool inline_call = initiating_token_call == this;
    auto run = [self = this, ec, r = std::string(reply)]() mutable { self->finish(ec, std::move(r)); };
    if constexpr (has_executor) {
      // Moved out first: once posted, the handler may run (and free this) on another thread.
      auto work = std::move(work_);
      auto alloc = asio::get_associated_allocator(handler_);
      if (inline_call)
        asio::post(work.get_executor(), asio::bind_allocator(alloc, std::move(run)));
      else
        asio::dispatch(work.get_executor(), asio::bind_allocator(alloc, std::move(run)));
      // Released here, once the post or dispatch has returned, not by the handler: until then this
      // thread may be inside the executor's context, which must not run out of work and go.
      work.reset();
    } else if (inline_call) {
      asio::post(asio::system_executor(), std::move(run));
    } else {
      run();
    }
  }

  // On the handler's executor: frees this, then runs the handler (Asio's order: the operation's
  // memory is released before the handler is called, so that the handler may start the next).
  void finish(std::error_code ec, std::string reply) {
    auto slot = asio::get_associated_cancellation_slot(handler_);
    if (slot.is_connected()) slot.clear();  // done: a later emit has nothing to cancel
    Handler handler = std::move(handler_);
    allocator a(asio::get_associated_allocator(handler));
    std::allocator_traits<allocator>::destroy(a, this);
    std::allocator_traits<allocator>::deallocate(a, this, 1);
    std::move(handler)(ec, std::move(reply));
  }

  Handler handler_;
  asio::executor_work_guard<asio::associated_executor_t<Handler>> work_;
};

struct initiate_call {
  template <class Handler>
  void operator()(Handler&& handler, client_engine* engine, const std::string& request,
                  client_engine::clock::time_point deadline) const {
    using call = token_call<std::decay_t<Handler>>;
    call* c = call::make(std::forward<Handler>(handler));
    initiating_token_call = c;  // see initiating_token_call
    if (c->wants_cancellation())
      c->connect(engine->async_call_cancelable(request, deadline, c->completion()));
    else
      engine->async_call(request, deadline, c->completion());
    initiating_token_call = nullptr;
  }
};

}  // namespace detail

/// The token of a call given none: the engine's executor's default, as for Asio's own operations.
using default_call_token = asio::default_completion_token_t<client_engine::executor_type>;

/// A call that completes by `deadline` at the latest (errc::timeout). `engine` must outlive it.
/// The request is copied before this returns (a token that defers the start, such as
/// asio::deferred, copies it into the deferred operation).
template <class CompletionToken = default_call_token>
auto async_call(client_engine& engine, std::string_view request,
                client_engine::clock::time_point deadline, CompletionToken&& token = default_call_token()) {
  return asio::async_initiate<CompletionToken, void(std::error_code, std::string)>(
      detail::initiate_call{}, token, &engine, std::string(request), deadline);
}

/// The same with a timeout from now. (Without a token, default_call_token: none for a plain
/// io_context on Asio 1.22.)
template <class CompletionToken = default_call_token>
auto async_call(client_engine& engine, std::string_view request, client_engine::clock::duration timeout,
                CompletionToken&& token = default_call_token()) {
  return async_call(engine, request, client_engine::clock::now() + timeout,
                    std::forward<CompletionToken>(token));
}

}  // namespace wirebench
