// `grpc`: every greet call is a unary Greet rpc on grpc++'s async completion-queue API, spread
// round robin over C channels; each call carries the reply timeout as its gRPC deadline. Calls
// complete on the client's queue threads (grpc_client_queues.hpp). close() cancels what is in
// flight and waits until every call has completed.
#include <condition_variable>
#include <mutex>

#include "grpc_backend.hpp"
#include "grpc_channels.hpp"
#include "grpc_client_queues.hpp"
#include "proto/echo.grpc.pb.h"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_backend {
namespace {

namespace pb = wirebench::echo;

class unary_client;

struct unary_call final : cq_call {
  explicit unary_call(unary_client* owner) : owner(owner), tags(this) {}
  void on(op what, bool ok) override;

  unary_client* owner;
  cq_tags tags;
  grpc::ClientContext context;
  pb::GreetRequest request;
  pb::GreetReply reply;
  grpc::Status status;
  std::unique_ptr<grpc::ClientAsyncResponseReader<pb::GreetReply>> reader;
  std::string expected;
  call_completion done;
  unary_call* prev = nullptr;  // in the owner's in-flight list
  unary_call* next = nullptr;
};

class unary_client final : public protocol_client {
 public:
  explicit unary_client(const client_config& c)
      : timeout_(c.reply_timeout), queues_(c.threads, c.cpus) {
    for (auto& channel : open_channels(c)) stubs_.push_back(pb::Echo::NewStub(channel));
  }
  ~unary_client() override { close(); }

  void async_greet(std::string_view name, call_completion done) override {
    auto* call = new unary_call(this);
    call->done = std::move(done);
    call->expected = expected_greeting(name);
    call->request.set_name(std::string(name));
    call->context.set_deadline(std::chrono::system_clock::now() +
                               std::chrono::duration_cast<std::chrono::system_clock::duration>(timeout_));
    {
      std::unique_lock lock(mutex_);
      if (closing_) {
        lock.unlock();
        std::unique_ptr<unary_call> refused(call);
        return refused->done(errc::connection_closed, {});
      }
      link(call);
    }
    // A cancel from close() before the call starts is kept by its context and applied at start.
    const std::size_t i = next_stub_.fetch_add(1, std::memory_order_relaxed) % stubs_.size();
    call->reader = stubs_[i]->PrepareAsyncGreet(&call->context, call->request, queues_.pick());
    call->reader->StartCall();
    call->reader->Finish(&call->reply, &call->status, call->tags(op::finished));
  }

  void close() override {
    {
      std::unique_lock lock(mutex_);
      closing_ = true;  // under the lock: no call joins the list after the cancel below
      for (unary_call* call = in_flight_; call; call = call->next) call->context.TryCancel();
      idle_.wait(lock, [this] { return in_flight_ == nullptr; });
    }
    queues_.stop();
  }

  void finish(unary_call* call) {
    std::unique_ptr<unary_call> owned(call);
    if (!call->status.ok()) {
      std::error_code ec = error_for(call->status);
      if (ec == errc::canceled && closing()) ec = errc::connection_closed;  // by close()
      call->done(ec, {});
    }
    else if (call->reply.greeting() != call->expected)
      call->done(errc::wrong_reply, {});
    else
      call->done({}, call->reply.greeting());
    // The call's context holds a reference to its channel: it goes before close() may return.
    std::lock_guard lock(mutex_);
    unlink(call);
    owned.reset();
    if (!in_flight_) idle_.notify_all();
  }

 private:
  bool closing() {
    std::lock_guard lock(mutex_);
    return closing_;
  }
  void link(unary_call* call) {
    call->next = in_flight_;
    if (in_flight_) in_flight_->prev = call;
    in_flight_ = call;
  }
  void unlink(unary_call* call) {
    (call->prev ? call->prev->next : in_flight_) = call->next;
    if (call->next) call->next->prev = call->prev;
  }

  std::chrono::steady_clock::duration timeout_;
  client_queues queues_;
  std::vector<std::unique_ptr<pb::Echo::Stub>> stubs_;
  std::atomic<std::size_t> next_stub_{0};
  std::mutex mutex_;
  std::condition_variable idle_;
  unary_call* in_flight_ = nullptr;  // a list through the calls, under mutex_
  bool closing_ = false;             // under mutex_
};

void unary_call::on(op, bool) { owner->finish(this); }

}  // namespace

std::unique_ptr<protocol_client> make_unary_client(const client_config& config) {
  return std::make_unique<unary_client>(config);
}

}  // namespace wirebench::grpc_backend
