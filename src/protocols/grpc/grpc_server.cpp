// The Echo service on grpc++'s callback API, in all its shapes: Get and Greet (unary), Expand
// (server streaming: one reply per word), Collect (client streaming: concatenates), Update,
// GreetStream and GreetBatchStream (bidirectional: a reply per message, carrying the request's
// id, so the client can match replies in any order).
//
// Why the callback API: it needs no completion-queue threads of ours, and grpc++ 1.51 runs its
// reactors on its own pollers; the async completion-queue API would let server_config.threads
// size the pollers, at the cost of a state machine per method (not done; see the closing note).
#include <atomic>
#include <deque>
#include <mutex>
#include <stdexcept>

#include <grpcpp/grpcpp.h>

#include "grpc_backend.hpp"
#include "proto/echo.grpc.pb.h"

namespace wirebench::grpc_backend {
namespace {

namespace pb = wirebench::echo;

// A bidirectional stream answering each message with one reply made by `answer`. grpc++ allows one
// write in flight per stream, so replies queue here; reading pauses while `max_queued` replies
// wait (a client that never reads its replies cannot make the server buffer without bound).
template <typename Request, typename Reply, typename Answer>
class answering_stream final : public grpc::ServerBidiReactor<Request, Reply> {
 public:
  answering_stream(Answer answer, std::atomic<std::uint64_t>& requests)
      : answer_(std::move(answer)), requests_(requests) {
    this->StartRead(&in_);
  }

  void OnReadDone(bool ok) override {
    std::unique_lock lock(mutex_);
    if (!ok) {  // the client half-closed, or the call is over
      reading_ = false;
      if (!writing_) finish(lock);
      return;
    }
    requests_.fetch_add(answer_(in_, queue_.emplace_back()), std::memory_order_relaxed);
    if (!writing_) {
      writing_ = true;
      this->StartWrite(&queue_.front());
    }
    if (queue_.size() < max_queued) this->StartRead(&in_);
    else read_paused_ = true;
  }

  void OnWriteDone(bool ok) override {
    std::unique_lock lock(mutex_);
    queue_.pop_front();
    if (!ok) {  // the stream broke: nothing more can be written
      queue_.clear();
      writing_ = false;
      if (!reading_) finish(lock);
      return;
    }
    if (read_paused_ && queue_.size() < max_queued / 2) {
      read_paused_ = false;
      this->StartRead(&in_);
    }
    if (!queue_.empty()) {
      this->StartWrite(&queue_.front());
      return;
    }
    writing_ = false;
    if (!reading_) finish(lock);
  }

  void OnDone() override { delete this; }

 private:
  static constexpr std::size_t max_queued = 256;
  void finish(std::unique_lock<std::mutex>&) {
    if (finished_) return;
    finished_ = true;
    this->Finish(grpc::Status::OK);
  }

  Answer answer_;
  std::atomic<std::uint64_t>& requests_;
  std::mutex mutex_;  // OnReadDone and OnWriteDone may run at once on different threads
  Request in_;
  std::deque<Reply> queue_;  // front() is being written
  bool reading_ = true;
  bool writing_ = false;
  bool read_paused_ = false;
  bool finished_ = false;
};

template <typename Request, typename Reply, typename Answer>
grpc::ServerBidiReactor<Request, Reply>* answer_each(Answer answer, std::atomic<std::uint64_t>& n) {
  return new answering_stream<Request, Reply, Answer>(std::move(answer), n);
}

// Expand: writes one reply per space-separated word of the request.
class expanding_writer final : public grpc::ServerWriteReactor<pb::EchoResponse> {
 public:
  explicit expanding_writer(const std::string& text) {
    std::size_t at = 0;
    while (at < text.size()) {
      const std::size_t end = std::min(text.find(' ', at), text.size());
      if (end > at) words_.emplace_back().set_text(text.substr(at, end - at));
      at = end + 1;
    }
    next();
  }
  void OnWriteDone(bool ok) override {
    if (!ok) return Finish(grpc::Status(grpc::StatusCode::UNAVAILABLE, "write failed"));
    words_.pop_front();
    next();
  }
  void OnDone() override { delete this; }

 private:
  void next() {
    if (words_.empty()) return Finish(grpc::Status::OK);
    StartWrite(&words_.front());
  }
  std::deque<pb::EchoResponse> words_;
};

// Collect: concatenates every request's text into the one reply.
class collecting_reader final : public grpc::ServerReadReactor<pb::EchoRequest> {
 public:
  explicit collecting_reader(pb::EchoResponse* reply) : reply_(reply) { StartRead(&in_); }
  void OnReadDone(bool ok) override {
    if (!ok) {
      reply_->set_text(std::move(text_));
      return Finish(grpc::Status::OK);
    }
    text_ += in_.text();
    StartRead(&in_);
  }
  void OnDone() override { delete this; }

 private:
  pb::EchoResponse* reply_;
  pb::EchoRequest in_;
  std::string text_;
};

class echo_service final : public pb::Echo::CallbackService {
 public:
  std::atomic<std::uint64_t> requests{0};

  grpc::ServerUnaryReactor* Get(grpc::CallbackServerContext* ctx, const pb::EchoRequest* in,
                                pb::EchoResponse* out) override {
    out->set_text(in->text());
    return done(ctx);
  }
  grpc::ServerWriteReactor<pb::EchoResponse>* Expand(grpc::CallbackServerContext*,
                                                     const pb::EchoRequest* in) override {
    return new expanding_writer(in->text());
  }
  grpc::ServerReadReactor<pb::EchoRequest>* Collect(grpc::CallbackServerContext*,
                                                    pb::EchoResponse* out) override {
    return new collecting_reader(out);
  }
  grpc::ServerBidiReactor<pb::EchoRequest, pb::EchoResponse>* Update(
      grpc::CallbackServerContext*) override {
    return answer_each<pb::EchoRequest, pb::EchoResponse>(
        [](const pb::EchoRequest& in, pb::EchoResponse& out) {
          out.set_text(in.text());
          return 0;  // not a greet request
        },
        requests);
  }
  grpc::ServerUnaryReactor* Greet(grpc::CallbackServerContext* ctx, const pb::GreetRequest* in,
                                  pb::GreetReply* out) override {
    out->set_id(in->id());
    out->set_greeting(expected_greeting(in->name()));
    requests.fetch_add(1, std::memory_order_relaxed);
    return done(ctx);
  }
  grpc::ServerBidiReactor<pb::GreetRequest, pb::GreetReply>* GreetStream(
      grpc::CallbackServerContext*) override {
    return answer_each<pb::GreetRequest, pb::GreetReply>(
        [](const pb::GreetRequest& in, pb::GreetReply& out) {
          out.set_id(in.id());
          out.set_greeting(expected_greeting(in.name()));
          return 1;
        },
        requests);
  }
  grpc::ServerBidiReactor<pb::GreetBatch, pb::GreetReplyBatch>* GreetBatchStream(
      grpc::CallbackServerContext*) override {
    return answer_each<pb::GreetBatch, pb::GreetReplyBatch>(
        [](const pb::GreetBatch& in, pb::GreetReplyBatch& out) {
          for (const pb::GreetRequest& r : in.requests()) {
            pb::GreetReply* reply = out.add_replies();
            reply->set_id(r.id());
            reply->set_greeting(expected_greeting(r.name()));
          }
          return in.requests_size();
        },
        requests);
  }

 private:
  static grpc::ServerUnaryReactor* done(grpc::CallbackServerContext* ctx) {
    grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
    r->Finish(grpc::Status::OK);
    return r;
  }
};

class server final : public protocol_server {
 public:
  explicit server(const server_config& c) : config_(c), listen_(c.listen) {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort(grpc_address(c.listen), grpc::InsecureServerCredentials(),
                             c.listen.is_tcp() ? &port : nullptr);
    builder.SetMaxReceiveMessageSize(static_cast<int>(c.max_frame_bytes));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                               static_cast<int>(c.max_concurrent_streams));
    builder.RegisterService(&service_);
    server_ = builder.BuildAndStart();
    if (!server_ || (c.listen.is_tcp() && port == 0))
      throw std::runtime_error("grpc: cannot listen on " + c.listen.to_string());
    if (c.listen.is_tcp()) listen_.port = static_cast<std::uint16_t>(port);
  }
  ~server() override { stop(); }

  endpoint local_endpoint() const override { return listen_; }
  void stop() override {
    std::lock_guard lock(stop_mutex_);
    if (stopped_) return;
    stopped_ = true;
    // Calls in flight get the drain timeout to finish; then gRPC cancels them.
    server_->Shutdown(std::chrono::system_clock::now() + config_.drain_timeout);
    server_->Wait();
  }
  server_stats stats() const override {
    server_stats s;
    s.requests = service_.requests.load(std::memory_order_relaxed);
    return s;
  }

 private:
  server_config config_;
  endpoint listen_;
  echo_service service_;
  std::unique_ptr<grpc::Server> server_;
  std::mutex stop_mutex_;
  bool stopped_ = false;
};

}  // namespace

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  return std::make_unique<server>(config);
}

}  // namespace wirebench::grpc_backend
