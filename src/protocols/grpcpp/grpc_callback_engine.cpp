// The Echo service on grpc++'s callback API, in all its shapes: Get and Greet (unary), Expand
// (server streaming: one reply per word), Collect (client streaming: concatenates), Update,
// GreetStream and GreetBatchStream (bidirectional: a reply per message, carrying the request's
// id, so the client can match replies in any order). gRPC runs the reactions on its own threads.
#include <atomic>
#include <deque>
#include <mutex>

#include <grpcpp/grpcpp.h>

#include "grpc_answers.hpp"
#include "grpc_engine.hpp"
#include "proto/echo.grpc.pb.h"

namespace wirebench::grpc_backend {
namespace {

// A bidirectional stream answering each message with one reply. grpc++ allows one write in
// flight per stream, so replies queue here; reading pauses while max_queued_replies wait.
template <typename Request, typename Reply>
class answering_stream final : public grpc::ServerBidiReactor<Request, Reply> {
 public:
  explicit answering_stream(std::atomic<std::uint64_t>& requests) : requests_(requests) {
    this->StartRead(&in_);
  }

  void OnReadDone(bool ok) override {
    std::unique_lock lock(mutex_);
    if (!ok) {  // the client half-closed, or the call is over
      reading_ = false;
      if (!writing_) finish(lock);
      return;
    }
    requests_.fetch_add(answer(in_, queue_.emplace_back()), std::memory_order_relaxed);
    if (!writing_) {
      writing_ = true;
      this->StartWrite(&queue_.front());
    }
    if (queue_.size() < max_queued_replies) this->StartRead(&in_);
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
    if (read_paused_ && queue_.size() < max_queued_replies / 2) {
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
  void finish(std::unique_lock<std::mutex>&) {
    if (finished_) return;
    finished_ = true;
    this->Finish(grpc::Status::OK);
  }

  std::atomic<std::uint64_t>& requests_;
  std::mutex mutex_;  // OnReadDone and OnWriteDone may run at once on different threads
  Request in_;
  std::deque<Reply> queue_;  // front() is being written
  bool reading_ = true;
  bool writing_ = false;
  bool read_paused_ = false;
  bool finished_ = false;
};

// Expand: writes one reply per space-separated word of the request.
class expanding_writer final : public grpc::ServerWriteReactor<pb::EchoResponse> {
 public:
  explicit expanding_writer(const std::string& text) : words_(split_words(text)) { next(); }
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
    answer(*in, *out);
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
    return new answering_stream<pb::EchoRequest, pb::EchoResponse>(requests);
  }
  grpc::ServerUnaryReactor* Greet(grpc::CallbackServerContext* ctx, const pb::GreetRequest* in,
                                  pb::GreetReply* out) override {
    requests.fetch_add(answer(*in, *out), std::memory_order_relaxed);
    return done(ctx);
  }
  grpc::ServerBidiReactor<pb::GreetRequest, pb::GreetReply>* GreetStream(
      grpc::CallbackServerContext*) override {
    return new answering_stream<pb::GreetRequest, pb::GreetReply>(requests);
  }
  grpc::ServerBidiReactor<pb::GreetBatch, pb::GreetReplyBatch>* GreetBatchStream(
      grpc::CallbackServerContext*) override {
    return new answering_stream<pb::GreetBatch, pb::GreetReplyBatch>(requests);
  }

 private:
  static grpc::ServerUnaryReactor* done(grpc::CallbackServerContext* ctx) {
    grpc::ServerUnaryReactor* r = ctx->DefaultReactor();
    r->Finish(grpc::Status::OK);
    return r;
  }
};

class callback_engine final : public grpc_engine {
 public:
  void add_to(grpc::ServerBuilder& builder) override { builder.RegisterService(&service_); }
  void start() override {}
  void stop() override {}
  std::uint64_t requests() const override {
    return service_.requests.load(std::memory_order_relaxed);
  }

 private:
  echo_service service_;
};

}  // namespace

std::unique_ptr<grpc_engine> make_callback_engine() { return std::make_unique<callback_engine>(); }

}  // namespace wirebench::grpc_backend
