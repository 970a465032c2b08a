#include "wirebench/calls/coroutine_runner.hpp"

#include <exception>
#include <utility>
#include <vector>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/co_spawn.hpp>
#include <asio/dispatch.hpp>
#include <asio/strand.hpp>

#include "wirebench/core/error.hpp"

namespace wirebench {

// One running call. `signal` and `finished` belong to `executor` (the coroutine's): Asio requires
// a cancellation slot to be emitted where its operation runs, and `finished` keeps an emit from
// reaching a coroutine that has already ended. `canceled` belongs to the connection's thread.
struct coroutine_runner::call {
  asio::any_io_executor executor;
  asio::cancellation_signal signal;
  bool finished = false;
  bool canceled = false;
};

namespace {

// A handler's exception as the error reply it becomes.
rpc_reply reply_for(std::exception_ptr failure) {
  try {
    std::rethrow_exception(std::move(failure));
  } catch (const std::system_error& e) {
    return rpc_reply(e.code(), e.what());
  } catch (const std::exception& e) {
    return rpc_reply(make_error_code(errc::remote_error), e.what());
  } catch (...) {
    return rpc_reply(make_error_code(errc::remote_error), "unknown exception");
  }
}

}  // namespace

// The coroutine runs on the connection's executor, or on a strand of the worker pool (so that one
// call's code, and its cancellation, never run on two threads at once). Its end is reported on
// that same executor (to mark it finished where cancellation is emitted), then handed to the
// connection's thread, which writes the reply. The shared_ptr to the connection keeps its
// handler, and so this runner, alive until then.
std::error_code coroutine_runner::start(connection& c, std::uint64_t key, std::string_view request) {
  if (calls_.contains(key)) return errc::protocol_error;
  auto running = std::make_shared<call>();
  running->executor = workers_ != nullptr
                          ? asio::any_io_executor(asio::make_strand(workers_->get_executor()))
                          : c.executor();
  calls_.emplace(key, running);
  auto conn = c.shared_from_this();
  auto ended = [this, conn, key, running](std::exception_ptr failure, rpc_reply reply) mutable {
    running->finished = true;
    if (failure) reply = reply_for(std::move(failure));
    asio::dispatch(conn->executor(), [this, conn, key, reply = std::move(reply)]() mutable {
      finish(*conn, key, std::move(reply));
    });
  };
  // Called inside the coroutine's try block, so a handler that throws before its first
  // suspension (or is not a coroutine at all) is answered like one that throws later.
  auto body = [handler = &handler_, request = std::string(request)]() mutable {
    return (*handler)(std::move(request));
  };
  asio::co_spawn(running->executor, std::move(body),
                 asio::bind_cancellation_slot(
                     running->signal.slot(), asio::bind_executor(running->executor, std::move(ended))));
  return {};
}

// Nothing is owed before it (replies go out as calls end): at once.
void coroutine_runner::start_answered(connection& c, std::uint64_t, std::string bytes) {
  c.send({}, std::move(bytes), {});
}

void coroutine_runner::cancel(std::uint64_t key) {
  const auto it = calls_.find(key);
  if (it == calls_.end() || it->second->canceled) return;  // ended already, or told twice
  it->second->canceled = true;
  asio::dispatch(it->second->executor, [running = it->second] {
    if (!running->finished) running->signal.emit(asio::cancellation_type::terminal);
  });
}

void coroutine_runner::finish(connection& c, std::uint64_t key, rpc_reply reply) {
  const auto it = calls_.find(key);
  const bool canceled = it->second->canceled;
  calls_.erase(it);
  if (!canceled) {
    const bool ok = !reply.error;
    write_(c, key, ok, ok ? std::move(reply.body) : reply.error_text());
  }
  c.work_finished();  // input paused at max_in_flight, or a drain, may be waiting for this
}

void coroutine_runner::connection_closed() {
  std::vector<std::uint64_t> keys;
  keys.reserve(calls_.size());
  for (const auto& [key, running] : calls_) keys.push_back(key);
  for (const std::uint64_t key : keys) cancel(key);
}

}  // namespace wirebench
