#include "wirebench/mux/mux_rpc_session.hpp"

#include <exception>
#include <utility>
#include <vector>

#include <asio/bind_cancellation_slot.hpp>
#include <asio/bind_executor.hpp>
#include <asio/cancellation_signal.hpp>
#include <asio/co_spawn.hpp>
#include <asio/dispatch.hpp>
#include <asio/strand.hpp>

#include "wirebench/codec/bytes.hpp"
#include "wirebench/core/error.hpp"

namespace wirebench {

// One running call. `signal` and `finished` belong to `executor` (the coroutine's): Asio requires
// a cancellation slot to be emitted where its operation runs, and `finished` keeps an emit from
// reaching a coroutine that has already ended. `canceled` belongs to the connection's thread.
struct mux_rpc_session::call {
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

mux_rpc_session::mux_rpc_session(const settings& s, asio::thread_pool* workers)
    : settings_(s), workers_(workers), codec_(s.max_frame_bytes) {}

std::size_t mux_rpc_session::on_data(connection& c, std::span<const std::byte> data,
                                     std::error_code& error) {
  using kind = server_request::kind;
  std::size_t consumed = 0;
  std::uint64_t requests = 0;
  // At max_in_flight the rest waits in the buffer: finish() calls work_finished(), which resumes.
  while (accepting_input()) {
    request_.what = kind::none;
    consumed += codec_.decode(data.subspan(consumed), request_, c.outbox(), error);
    if (request_.what == kind::call) {
      // A second call with an id still running could not be told apart in its reply.
      if (calls_.contains(request_.key)) {
        error = errc::protocol_error;
        break;
      }
      start(c, static_cast<std::uint32_t>(request_.key), std::string(request_.argument));
      ++requests;
    } else if (request_.what == kind::cancel) {
      cancel(static_cast<std::uint32_t>(request_.key));
    } else if (request_.what == kind::notice) {  // a pong
      c.outbox().append_bytes(as_bytes(request_.answer));
    }
    if (request_.what == kind::none || error) break;
  }
  count_requests(requests);
  c.request_flush();
  return consumed;
}

// The coroutine runs on the connection's executor, or on a strand of the worker pool (so that one
// call's code, and its cancellation, never run on two threads at once). Its end is reported on
// that same executor (to mark it finished where cancellation is emitted), then handed to the
// connection's thread, which writes the reply. The shared_ptr to the connection keeps this
// session alive until then.
void mux_rpc_session::start(connection& c, std::uint32_t id, std::string request) {
  auto running = std::make_shared<call>();
  running->executor = workers_ != nullptr
                          ? asio::any_io_executor(asio::make_strand(workers_->get_executor()))
                          : c.executor();
  calls_.emplace(id, running);
  auto conn = c.shared_from_this();
  auto ended = [this, conn, id, running](std::exception_ptr failure, rpc_reply reply) mutable {
    running->finished = true;
    if (failure) reply = reply_for(std::move(failure));
    asio::dispatch(conn->executor(), [this, conn, id, reply = std::move(reply)]() mutable {
      finish(*conn, id, std::move(reply));
    });
  };
  // Called inside the coroutine's try block, so a handler that throws before its first
  // suspension (or is not a coroutine at all) is answered like one that throws later.
  auto body = [handler = &settings_.handler, request = std::move(request)]() mutable {
    return (*handler)(std::move(request));
  };
  asio::co_spawn(running->executor, std::move(body),
                 asio::bind_cancellation_slot(
                     running->signal.slot(), asio::bind_executor(running->executor, std::move(ended))));
}

void mux_rpc_session::cancel(std::uint32_t id) {
  const auto it = calls_.find(id);
  if (it == calls_.end() || it->second->canceled) return;  // ended already, or told twice
  it->second->canceled = true;
  asio::dispatch(it->second->executor, [running = it->second] {
    if (!running->finished) running->signal.emit(asio::cancellation_type::terminal);
  });
}

void mux_rpc_session::finish(connection& c, std::uint32_t id, rpc_reply reply) {
  const auto it = calls_.find(id);
  const bool canceled = it->second->canceled;
  calls_.erase(it);
  if (!canceled) {
    const bool ok = !reply.error;
    codec_.encode_owned_reply(id, ok, ok ? std::move(reply.body) : reply.error_text(), c.outbox());
    c.request_flush();
  }
  c.work_finished();  // input paused at max_in_flight, or a drain, may be waiting for this
}

// The connection is gone: every running call is canceled (its reply would have nowhere to go).
// They still end through finish(), which then sends nothing.
void mux_rpc_session::on_close(connection&, std::error_code) {
  std::vector<std::uint32_t> ids;
  ids.reserve(calls_.size());
  for (const auto& [id, running] : calls_) ids.push_back(id);
  for (const std::uint32_t id : ids) cancel(id);
}

void mux_rpc_session::on_drain(connection& c) {
  codec_.going_away(c.outbox());
  c.request_flush();
}

}  // namespace wirebench
