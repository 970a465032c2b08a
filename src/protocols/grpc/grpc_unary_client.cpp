// `grpc`: every greet call is a unary Greet rpc on grpc++'s async completion-queue API, spread
// round robin over C channels; each call carries the reply timeout as its gRPC deadline. Calls
// complete on the client's queue threads (grpc_client_queues.hpp). close() cancels what is in
// flight and waits until every call has completed. With a user call (grpc_call), the same client
// calls the user's unary method through grpc++'s generic stub instead: the request's bytes made
// once from JSON (grpc_dynamic_method.hpp), each reply parsed as the method's reply type.
#include <condition_variable>
#include <mutex>

#include <grpcpp/generic/generic_stub.h>

#include "grpc_backend.hpp"
#include "grpc_channels.hpp"
#include "grpc_client_queues.hpp"
#include "grpc_dynamic_method.hpp"
#include "proto/echo.grpc.pb.h"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_backend {
namespace {

namespace pb = wirebench::echo;

// The greet call: Greet on the generated stub; a reply is right when it is the greeting.
class greet_rpc {
 public:
  using request_type = pb::GreetRequest;
  using reply_type = pb::GreetReply;
  using stub_type = pb::Echo::Stub;
  // What one call keeps between its start and its reply.
  struct state {
    std::string expected;
  };

  static constexpr bool greets = true;
  std::unique_ptr<stub_type> stub(const std::shared_ptr<grpc::Channel>& channel) const {
    return pb::Echo::NewStub(channel);
  }
  void prepare(std::string_view name, request_type& request, state& s) const {
    s.expected = expected_greeting(name);
    request.set_name(std::string(name));
  }
  auto start(stub_type& stub, grpc::ClientContext* context, const request_type& request,
             grpc::CompletionQueue* cq) const {
    return stub.PrepareAsyncGreet(context, request, cq);
  }
  // The call's outcome from its reply, and the text the completion gets (valid until it returns).
  std::error_code judge(const reply_type& reply, state& s, std::string_view& text) const {
    if (reply.greeting() != s.expected) return errc::wrong_reply;
    text = reply.greeting();
    return {};
  }
};

// The user's unary method: the generic stub with the request's bytes; a reply is right when it
// parses as the method's reply type, and its text is that reply in JSON.
class user_rpc {
 public:
  using request_type = grpc::ByteBuffer;
  using reply_type = grpc::ByteBuffer;
  using stub_type = grpc::GenericStub;
  struct state {};

  static constexpr bool greets = false;
  explicit user_rpc(const grpc_call& call) : method_(std::make_shared<grpc_dynamic_method>(call)) {
    grpc::Slice bytes(method_->request_bytes());
    request_ = grpc::ByteBuffer(&bytes, 1);
  }
  std::unique_ptr<stub_type> stub(const std::shared_ptr<grpc::Channel>& channel) const {
    return std::make_unique<stub_type>(channel);
  }
  void prepare(std::string_view, request_type& request, state&) const {
    request = request_;  // shares the bytes (a reference count), no copy
  }
  auto start(stub_type& stub, grpc::ClientContext* context, const request_type& request,
             grpc::CompletionQueue* cq) const {
    return stub.PrepareUnaryCall(context, method_->path(), request, cq);
  }
  std::error_code judge(const reply_type& reply, state&, std::string_view& text) const {
    grpc::Slice joined;
    if (!reply.TrySingleSlice(&joined).ok() && !reply.DumpToSingleSlice(&joined).ok())
      return errc::wrong_reply;
    const std::string_view bytes(reinterpret_cast<const char*>(joined.begin()), joined.size());
    thread_local std::string json;  // per queue thread: read by the completion before it returns
    if (!method_->reply_json(bytes, json)) return errc::wrong_reply;
    text = json;
    return {};
  }

 private:
  std::shared_ptr<const grpc_dynamic_method> method_;
  grpc::ByteBuffer request_;
};

template <class Rpc>
class unary_client;

template <class Rpc>
struct unary_call final : cq_call {
  explicit unary_call(unary_client<Rpc>* owner) : owner(owner), tags(this) {}
  void on(op what, bool ok) override;

  unary_client<Rpc>* owner;
  cq_tags tags;
  grpc::ClientContext context;
  typename Rpc::request_type request;
  typename Rpc::reply_type reply;
  typename Rpc::state state;
  grpc::Status status;
  std::unique_ptr<grpc::ClientAsyncResponseReader<typename Rpc::reply_type>> reader;
  call_completion done;
  unary_call* prev = nullptr;  // in the owner's in-flight list
  unary_call* next = nullptr;
};

template <class Rpc>
class unary_client final : public protocol_client {
 public:
  using call = unary_call<Rpc>;
  unary_client(const client_config& c, Rpc rpc)
      : rpc_(std::move(rpc)), timeout_(c.reply_timeout), queues_(c.threads, c.cpus) {
    for (auto& channel : open_channels(c)) stubs_.push_back(rpc_.stub(channel));
  }
  ~unary_client() override { close(); }

  void async_greet(std::string_view name, call_completion done) override {
    auto* c = new call(this);
    c->done = std::move(done);
    rpc_.prepare(name, c->request, c->state);
    c->context.set_deadline(std::chrono::system_clock::now() +
                            std::chrono::duration_cast<std::chrono::system_clock::duration>(timeout_));
    {
      std::unique_lock lock(mutex_);
      if (closing_) {
        lock.unlock();
        std::unique_ptr<call> refused(c);
        return refused->done(errc::connection_closed, {});
      }
      link(c);
    }
    // A cancel from close() before the call starts is kept by its context and applied at start.
    const std::size_t i = next_stub_.fetch_add(1, std::memory_order_relaxed) % stubs_.size();
    c->reader = rpc_.start(*stubs_[i], &c->context, c->request, queues_.pick());
    c->reader->StartCall();
    c->reader->Finish(&c->reply, &c->status, c->tags(op::finished));
  }

  void close() override {
    {
      std::unique_lock lock(mutex_);
      closing_ = true;  // under the lock: no call joins the list after the cancel below
      for (call* c = in_flight_; c; c = c->next) c->context.TryCancel();
      idle_.wait(lock, [this] { return in_flight_ == nullptr; });
    }
    queues_.stop();
  }
  bool greets() const override { return Rpc::greets; }

  // On the queue thread the call started on, once its status is in.
  void finish(call* c) {
    std::unique_ptr<call> owned(c);
    if (!c->status.ok()) {
      std::error_code ec = error_for(c->status);
      if (ec == errc::canceled && closing()) ec = errc::connection_closed;  // by close()
      c->done(ec, {});
    } else {
      std::string_view text;
      const std::error_code ec = rpc_.judge(c->reply, c->state, text);
      c->done(ec, ec ? std::string_view{} : text);
    }
    // The call's context holds a reference to its channel: it goes before close() may return.
    std::lock_guard lock(mutex_);
    unlink(c);
    owned.reset();
    if (!in_flight_) idle_.notify_all();
  }

 private:
  bool closing() {
    std::lock_guard lock(mutex_);
    return closing_;
  }
  void link(call* c) {
    c->next = in_flight_;
    if (in_flight_) in_flight_->prev = c;
    in_flight_ = c;
  }
  void unlink(call* c) {
    (c->prev ? c->prev->next : in_flight_) = c->next;
    if (c->next) c->next->prev = c->prev;
  }

  const Rpc rpc_;
  std::chrono::steady_clock::duration timeout_;
  client_queues queues_;
  std::vector<std::unique_ptr<typename Rpc::stub_type>> stubs_;
  std::atomic<std::size_t> next_stub_{0};
  std::mutex mutex_;
  std::condition_variable idle_;
  call* in_flight_ = nullptr;  // a list through the calls, under mutex_
  bool closing_ = false;       // under mutex_
};

template <class Rpc>
void unary_call<Rpc>::on(op, bool) { owner->finish(this); }

}  // namespace

std::unique_ptr<protocol_client> make_unary_client(const client_config& config) {
  if (config.call) return std::make_unique<unary_client<user_rpc>>(config, user_rpc(*config.call->grpc()));
  return std::make_unique<unary_client<greet_rpc>>(config, greet_rpc{});
}

}  // namespace wirebench::grpc_backend
