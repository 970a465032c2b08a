// `grpc`: every greet call is a unary Greet rpc (grpc++ callback API), spread round robin over C
// channels; each call carries the reply timeout as its gRPC deadline. close() cancels what is in
// flight and waits until every call has completed.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <unordered_set>

#include "grpc_backend.hpp"
#include "grpc_channels.hpp"
#include "proto/echo.grpc.pb.h"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_backend {
namespace {

namespace pb = wirebench::echo;

class unary_client final : public protocol_client {
 public:
  explicit unary_client(const client_config& c) : timeout_(c.reply_timeout) {
    for (auto& channel : open_channels(c)) stubs_.push_back(pb::Echo::NewStub(channel));
  }
  ~unary_client() override { close(); }

  void async_greet(std::string_view name, call_completion done) override {
    auto* call = new unary_call;
    call->done = std::move(done);
    call->expected = expected_greeting(name);
    call->request.set_name(std::string(name));
    call->context.set_deadline(std::chrono::system_clock::now() +
                               std::chrono::duration_cast<std::chrono::system_clock::duration>(timeout_));
    {
      std::unique_lock lock(mutex_);
      if (closing_.load(std::memory_order_relaxed)) {
        lock.unlock();
        std::unique_ptr<unary_call> refused(call);
        return refused->done(errc::connection_closed, {});
      }
      in_flight_.insert(call);
    }
    const std::size_t i = next_.fetch_add(1, std::memory_order_relaxed) % stubs_.size();
    stubs_[i]->async()->Greet(&call->context, &call->request, &call->reply,
                              [this, call](grpc::Status status) { finish(call, status); });
  }

  void close() override {
    std::unique_lock lock(mutex_);
    closing_ = true;  // under the lock: no call joins in_flight_ after the cancel below
    for (unary_call* call : in_flight_) call->context.TryCancel();
    idle_.wait(lock, [this] { return in_flight_.empty(); });
  }

 private:
  struct unary_call {
    grpc::ClientContext context;
    pb::GreetRequest request;
    pb::GreetReply reply;
    std::string expected;
    call_completion done;
  };

  void finish(unary_call* call, const grpc::Status& status) {
    std::unique_ptr<unary_call> owned(call);
    if (!status.ok()) {
      std::error_code ec = error_for(status);
      if (ec == errc::canceled && closing_.load()) ec = errc::connection_closed;  // by close()
      call->done(ec, {});
    }
    else if (call->reply.greeting() != call->expected)
      call->done(errc::wrong_reply, {});
    else
      call->done({}, call->reply.greeting());
    // The call's context holds a reference to its channel: it must be gone before close() can
    // return. Otherwise the channel's last reference could drop here, on one of gRPC's callback
    // threads, whose ~Channel then shuts down (and frees) the very completion queue that thread
    // is polling — a crash in grpc_completion_queue_next seen with grpc++ 1.51.
    owned.reset();
    std::lock_guard lock(mutex_);
    in_flight_.erase(call);
    if (in_flight_.empty()) idle_.notify_all();
  }

  std::chrono::steady_clock::duration timeout_;
  std::vector<std::unique_ptr<pb::Echo::Stub>> stubs_;
  std::atomic<std::size_t> next_{0};
  std::mutex mutex_;
  std::condition_variable idle_;
  std::unordered_set<unary_call*> in_flight_;
  std::atomic<bool> closing_{false};  // written under mutex_; finish() reads it without
};

}  // namespace

std::unique_ptr<protocol_client> make_unary_client(const client_config& config) {
  return std::make_unique<unary_client>(config);
}

}  // namespace wirebench::grpc_backend
