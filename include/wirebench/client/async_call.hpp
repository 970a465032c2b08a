#pragma once
/// \file
/// async_call(engine, request, deadline or timeout, token): a client_engine call with any Asio
/// completion token: a callback, asio::use_awaitable, asio::use_future, ...
///
/// Completion signature: `void(std::error_code, std::string reply)`. The reply is copied out of
/// the read buffer (the engine's callback form, client_engine::async_call, only lends a view and
/// stays the zero-copy path); one allocation per call holds the handler.
///
/// The handler runs on its associated executor (a coroutine's, an io_context's), not on the
/// engine's thread, and keeps that executor's work counted until then. Errors are the engine's
/// (timeout, canceled, connection_closed, rejected, remote_error, ...; see client_engine.hpp).
///
/// Cancellation: a cancellation slot on the token (asio::bind_cancellation_slot, a coroutine's
/// cancellation state) cancels the call as call_handle::cancel() does: before it is sent it never
/// reaches the server; after, it completes with errc::canceled at once. The slot must be emitted
/// on the handler's executor, as Asio requires of every cancellation slot.
#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <asio/associated_cancellation_slot.hpp>
#include <asio/associated_executor.hpp>
#include <asio/async_result.hpp>
#include <asio/dispatch.hpp>
#include <asio/executor_work_guard.hpp>

#include "wirebench/client/client_engine.hpp"

namespace wirebench {

namespace detail {

// The handler of one token call, shared by the engine's completion and by the cancellation
// slot. Made on the initiating thread; completed once, from the engine's thread,
// by a dispatch to the handler's executor.
template <class Handler>
class token_call : public std::enable_shared_from_this<token_call<Handler>> {
 public:
  explicit token_call(Handler&& handler)
      : handler_(std::move(handler)), work_(asio::get_associated_executor(handler_)) {}

  call_completion completion() {
    return [self = this->shared_from_this()](std::error_code ec, std::string_view reply) {
      self->complete(ec, std::string(reply));
    };
  }

  // Connects the token's slot, if it has one, to `handle` (from async_call_cancelable).
  bool wants_cancellation() const { return asio::get_associated_cancellation_slot(handler_).is_connected(); }
  void connect(client_engine::call_handle handle) {
    asio::get_associated_cancellation_slot(handler_).assign(
        [handle](asio::cancellation_type) mutable { handle.cancel(); });
  }

 private:
  void complete(std::error_code ec, std::string reply) {
    asio::dispatch(work_.get_executor(), [self = this->shared_from_this(), ec,
                                          reply = std::move(reply)]() mutable {
      auto slot = asio::get_associated_cancellation_slot(self->handler_);
      if (slot.is_connected()) slot.clear();  // done: a later emit has nothing to cancel
      // Moved out: what the handler holds is released here, not when the engine drops its copy
      // of the completion.
      Handler handler = std::move(self->handler_);
      std::move(handler)(ec, std::move(reply));
    });
    // Released here, once the dispatch has returned, not by the handler: until then this thread
    // is still inside the executor's context, which must not run out of work and be destroyed.
    work_.reset();
  }

  Handler handler_;
  asio::executor_work_guard<asio::associated_executor_t<Handler>> work_;
};

struct initiate_call {
  template <class Handler>
  void operator()(Handler&& handler, client_engine* engine, std::string request,
                  client_engine::clock::time_point deadline) const {
    auto call = std::make_shared<token_call<std::decay_t<Handler>>>(std::forward<Handler>(handler));
    if (call->wants_cancellation())
      call->connect(engine->async_call_cancelable(request, deadline, call->completion()));
    else
      engine->async_call(request, deadline, call->completion());
  }
};

}  // namespace detail

/// A call that completes by `deadline` at the latest (errc::timeout). `engine` must outlive it.
template <class CompletionToken>
auto async_call(client_engine& engine, std::string_view request,
                client_engine::clock::time_point deadline, CompletionToken&& token) {
  return asio::async_initiate<CompletionToken, void(std::error_code, std::string)>(
      detail::initiate_call{}, token, &engine, std::string(request), deadline);
}

/// The same with a timeout from now.
template <class CompletionToken>
auto async_call(client_engine& engine, std::string_view request,
                client_engine::clock::duration timeout, CompletionToken&& token) {
  return async_call(engine, request, client_engine::clock::now() + timeout,
                    std::forward<CompletionToken>(token));
}

}  // namespace wirebench
