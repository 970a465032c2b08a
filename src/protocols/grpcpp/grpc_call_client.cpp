// `grpc`: every greet call is a unary Greet rpc on grpc++'s async completion-queue API, spread
// round robin over C channels; each call carries the reply timeout as its gRPC deadline. Calls
// complete on the client's queue threads (grpc_client_queues.hpp). close() cancels what is in
// flight and waits until every call has completed. With a user call (grpc_call) the same client
// calls the user's method instead, unary or streaming (grpc_user_rpc.hpp), or a mix of methods
// (grpc_user_mix_rpc.hpp): what differs between the shapes is an Rpc policy, which starts a call,
// moves it on at each event, and judges it.
#include <condition_variable>
#include <mutex>

#include "grpc_backend.hpp"
#include "grpc_channels.hpp"
#include "grpc_client_queues.hpp"
#include "grpc_reflection_client.hpp"
#include "grpc_user_mix_rpc.hpp"
#include "grpc_user_rpc.hpp"
#include "../grpc/grpc_metadata.hpp"
#include "proto/echo.grpc.pb.h"
#include "wirebench/core/error.hpp"

namespace wirebench::grpc_backend {
namespace {

namespace pb = wirebench::echo;

// The greet call: Greet on the generated stub; a reply is right when it is the greeting.
class greet_rpc : public unary_rpc_base {
 public:
  using stub_type = pb::Echo::Stub;
  struct state {
    pb::GreetRequest request;
    pb::GreetReply reply;
    std::string expected;
    std::unique_ptr<grpc::ClientAsyncResponseReader<pb::GreetReply>> reader;
  };
  static constexpr bool greets = true;

  std::unique_ptr<stub_type> stub(const std::shared_ptr<grpc::Channel>& channel) const {
    return pb::Echo::NewStub(channel);
  }
  template <class Call>
  void start(stub_type& stub, Call& c, std::string_view name, grpc::CompletionQueue* cq) const {
    c.state.expected = expected_greeting(name);
    c.state.request.set_name(std::string(name));
    c.state.reader = stub.PrepareAsyncGreet(&c.context, c.state.request, cq);
    run(c);
  }
  // The call's outcome from its reply, and the text the completion gets (valid until it returns).
  template <class Call>
  std::error_code judge(Call& c, std::string_view& text) const {
    if (c.state.reply.greeting() != c.state.expected) return errc::wrong_reply;
    text = c.state.reply.greeting();
    return {};
  }
};

template <class Rpc>
class rpc_client;

template <class Rpc>
struct rpc_call final : cq_call {
  explicit rpc_call(rpc_client<Rpc>* owner) : owner(owner), tags(this) {}
  void on(op what, bool ok) override;

  rpc_client<Rpc>* owner;
  cq_tags tags;
  grpc::ClientContext context;
  grpc::Status status;
  typename Rpc::state state;
  call_completion done;
  rpc_call* prev = nullptr;  // in the owner's in-flight list
  rpc_call* next = nullptr;
};

template <class Rpc>
class rpc_client final : public protocol_client {
 public:
  using call = rpc_call<Rpc>;
  rpc_client(const client_config& c, Rpc rpc)
      : rpc_(std::move(rpc)), timeout_(c.reply_timeout), queues_(c.threads, c.cpus) {
    for (auto& channel : open_channels(c)) stubs_.push_back(rpc_.stub(channel));
  }
  ~rpc_client() override { close(); }

  // Its channels are gRPC's, not connections of ours: a lane means nothing here.
  void async_greet(std::string_view name, call_options options, call_completion done) override {
    const auto deadline =
        options.has_deadline() ? options.deadline : std::chrono::steady_clock::now() + timeout_;
    if constexpr (requires { rpc_.refuses(name); }) {  // a mix: the payload names the request
      if (rpc_.refuses(name)) return done(make_error_code(std::errc::invalid_argument), {});
    }
    auto* c = new call(this);
    c->done = std::move(done);
    // gRPC's deadlines are on the system clock: what is left of ours, from its now.
    c->context.set_deadline(std::chrono::system_clock::now() +
                            std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                deadline - std::chrono::steady_clock::now()));
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
    rpc_.start(*stubs_[i], *c, name, queues_.pick());
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

  // On the queue thread the call started on, at each of its events.
  void on(call* c, op what, bool ok) {
    if (rpc_.on(*c, what, ok)) finish(c);
  }

 private:
  // Its status is in: the completion, then the call goes.
  void finish(call* c) {
    std::unique_ptr<call> owned(c);
    if (!c->status.ok()) {
      std::error_code ec = error_for(c->status);
      if (ec == errc::canceled && closing()) ec = errc::connection_closed;  // by close()
      c->done(ec, c->status.error_message());  // gRPC's words: the server's, or the transport's
    } else {
      std::string_view text;
      const std::error_code ec = rpc_.judge(*c, text);
      c->done(ec, ec ? std::string_view{} : text);
    }
    // The call's context holds a reference to its channel: it goes before close() may return.
    std::lock_guard lock(mutex_);
    unlink(c);
    owned.reset();
    if (!in_flight_) idle_.notify_all();
  }
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
void rpc_call<Rpc>::on(op what, bool ok) { owner->on(this, what, ok); }

}  // namespace

std::unique_ptr<protocol_client> make_call_client(const client_config& config) {
  if (config.calls.empty()) return std::make_unique<rpc_client<greet_rpc>>(config, greet_rpc{});
  std::vector<user_mix_rpc::request_rpc> requests;
  const auto methods = grpc_wire::dynamic_methods(config.calls, [&config](const grpc_call& call) {
    return reflected_files(config, service_of(call.method));
  });
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const auto& method = methods[i];
    auto metadata = grpc_wire::checked_metadata(*config.calls[i].as<grpc_call>());
    const std::uint64_t keyspace = config.calls[i].keyspace;
    if (method->client_streaming() || method->server_streaming())
      requests.emplace_back(std::in_place_type<user_stream_rpc>, method, keyspace, std::move(metadata));
    else
      requests.emplace_back(std::in_place_type<user_unary_rpc>, method, keyspace, std::move(metadata));
  }
  if (requests.size() > 1)
    return std::make_unique<rpc_client<user_mix_rpc>>(config, user_mix_rpc(std::move(requests)));
  if (auto* stream = std::get_if<user_stream_rpc>(&requests.front()))
    return std::make_unique<rpc_client<user_stream_rpc>>(config, std::move(*stream));
  return std::make_unique<rpc_client<user_unary_rpc>>(config, std::get<user_unary_rpc>(std::move(requests.front())));
}

}  // namespace wirebench::grpc_backend
