// The Echo service on grpc++'s async completion-queue API. Each of `threads` completion queues is
// drained by one thread of ours; every call is requested on one queue and all its events come
// back there, so a call's state is touched by one thread only and needs no lock (the callback
// engine locks each stream, and gRPC hands its reactions between its own threads).
//
// A call is a small state machine: each operation it starts carries a tag naming the call and
// the operation, and the queue's thread feeds the outcome back to it. A call that got its
// request asks for the next one of its method first, so a queue always has calls waiting.
#include <atomic>
#include <deque>
#include <string>
#include <thread>

#include "grpc_answers.hpp"
#include "grpc_cq.hpp"
#include "grpc_engine.hpp"
#include "proto/echo.grpc.pb.h"

namespace wirebench::grpc_backend {
namespace {

using service_type = pb::Echo::AsyncService;

// What a call needs to request its successor and count its work.
struct queue_slot {
  service_type* service;
  grpc::ServerCompletionQueue* queue;
  std::atomic<std::uint64_t>* requests;
  std::atomic<std::size_t>* live;  // calls not yet deleted, on every queue
};

// Counts a call as live from its first member's construction to its last member's destruction
// (the ServerContext included), so that stop() sees none left only once all are wholly gone.
class live_count {
 public:
  explicit live_count(std::atomic<std::size_t>* live) : live_(live) {
    live_->fetch_add(1, std::memory_order_relaxed);
  }
  ~live_count() { live_->fetch_sub(1, std::memory_order_release); }
  live_count(const live_count&) = delete;
  live_count& operator=(const live_count&) = delete;

 private:
  std::atomic<std::size_t>* live_;
};

template <typename Self>
class call_base : public cq_call {
 protected:
  explicit call_base(const queue_slot& slot) : live_(slot.live), slot_(slot), tags_(this) {}
  void* tag(op what) { return tags_(what); }
  void request_next() { new Self(slot_); }
  void count(std::size_t answered) {
    if (answered) slot_.requests->fetch_add(answered, std::memory_order_relaxed);
  }
  live_count live_;  // first: destroyed last
  queue_slot slot_;
  grpc::ServerContext context_;

 private:
  cq_tags tags_;
};

// Get and Greet: one request, one reply.
template <auto request_method, typename Request, typename Reply>
class unary_call final : public call_base<unary_call<request_method, Request, Reply>> {
 public:
  explicit unary_call(const queue_slot& slot)
      : unary_call::call_base(slot), responder_(&this->context_) {
    (slot.service->*request_method)(&this->context_, &in_, &responder_, slot.queue, slot.queue,
                                    this->tag(op::started));
  }
  void on(op what, bool ok) override {
    if (what != op::started || !ok) {  // finished, or no call: the server is shutting down
      delete this;
      return;
    }
    this->request_next();
    this->count(answer(in_, out_));
    responder_.Finish(out_, grpc::Status::OK, this->tag(op::finished));
  }

 private:
  Request in_;
  Reply out_;
  grpc::ServerAsyncResponseWriter<Reply> responder_;
};

// Expand: one reply per word of the request.
class expand_call final : public call_base<expand_call> {
 public:
  explicit expand_call(const queue_slot& slot) : call_base(slot), writer_(&context_) {
    slot.service->RequestExpand(&context_, &in_, &writer_, slot.queue, slot.queue,
                                tag(op::started));
  }
  void on(op what, bool ok) override {
    switch (what) {
      case op::started:
        if (!ok) break;
        request_next();
        words_ = split_words(in_.text());
        return next();
      case op::wrote:
        if (!ok)
          return writer_.Finish({grpc::StatusCode::UNAVAILABLE, "write failed"}, tag(op::finished));
        words_.pop_front();
        return next();
      default:
        break;
    }
    delete this;
  }

 private:
  void next() {
    if (words_.empty()) return writer_.Finish(grpc::Status::OK, tag(op::finished));
    writer_.Write(words_.front(), tag(op::wrote));
  }
  pb::EchoRequest in_;
  std::deque<pb::EchoResponse> words_;
  grpc::ServerAsyncWriter<pb::EchoResponse> writer_;
};

// Collect: every request's text, concatenated into the one reply.
class collect_call final : public call_base<collect_call> {
 public:
  explicit collect_call(const queue_slot& slot) : call_base(slot), reader_(&context_) {
    slot.service->RequestCollect(&context_, &reader_, slot.queue, slot.queue, tag(op::started));
  }
  void on(op what, bool ok) override {
    switch (what) {
      case op::started:
        if (!ok) break;
        request_next();
        return reader_.Read(&in_, tag(op::read));
      case op::read:
        if (!ok) {  // the client half-closed
          out_.set_text(std::move(text_));
          return reader_.Finish(out_, grpc::Status::OK, tag(op::finished));
        }
        text_ += in_.text();
        return reader_.Read(&in_, tag(op::read));
      default:
        break;
    }
    delete this;
  }

 private:
  pb::EchoRequest in_;
  pb::EchoResponse out_;
  std::string text_;
  grpc::ServerAsyncReader<pb::EchoResponse, pb::EchoRequest> reader_;
};

// Update, GreetStream, GreetBatchStream: a reply per message. One write at a time is allowed, so
// replies queue; reading pauses while max_queued_replies wait, and resumes at half that.
template <auto request_method, typename Request, typename Reply>
class bidi_call final : public call_base<bidi_call<request_method, Request, Reply>> {
 public:
  explicit bidi_call(const queue_slot& slot)
      : bidi_call::call_base(slot), stream_(&this->context_) {
    (slot.service->*request_method)(&this->context_, &stream_, slot.queue, slot.queue,
                                    this->tag(op::started));
  }
  void on(op what, bool ok) override {
    switch (what) {
      case op::started:
        if (!ok) break;
        this->request_next();
        return read_next();
      case op::read:
        return read_done(ok);
      case op::wrote:
        return write_done(ok);
      case op::finished:
        break;
    }
    delete this;
  }

 private:
  void read_next() {
    reading_ = true;
    stream_.Read(&in_, this->tag(op::read));
  }
  void read_done(bool ok) {
    reading_ = false;
    if (!ok || write_failed_) {  // the client half-closed, or the call is over
      reads_over_ = true;
      return maybe_finish();
    }
    this->count(answer(in_, queue_.emplace_back()));
    if (!writing_) write_front();
    if (queue_.size() < max_queued_replies) read_next();
  }
  void write_front() {
    writing_ = true;
    stream_.Write(queue_.front(), this->tag(op::wrote));
  }
  void write_done(bool ok) {
    writing_ = false;
    queue_.pop_front();
    if (!ok) {  // the stream broke: nothing more can be written
      queue_.clear();
      write_failed_ = true;
      return maybe_finish();
    }
    if (!reading_ && !reads_over_ && queue_.size() < max_queued_replies / 2) read_next();
    if (!queue_.empty()) return write_front();
    maybe_finish();
  }
  // Finish once no operation is outstanding and nothing more will be answered.
  void maybe_finish() {
    if (finishing_ || writing_ || reading_ || !(reads_over_ || write_failed_)) return;
    finishing_ = true;
    stream_.Finish(grpc::Status::OK, this->tag(op::finished));
  }

  Request in_;
  std::deque<Reply> queue_;  // front() is being written
  grpc::ServerAsyncReaderWriter<Reply, Request> stream_;
  bool reading_ = false;
  bool writing_ = false;
  bool reads_over_ = false;
  bool write_failed_ = false;
  bool finishing_ = false;
};

using get_call = unary_call<&service_type::RequestGet, pb::EchoRequest, pb::EchoResponse>;
using greet_call = unary_call<&service_type::RequestGreet, pb::GreetRequest, pb::GreetReply>;
using update_call = bidi_call<&service_type::RequestUpdate, pb::EchoRequest, pb::EchoResponse>;
using greet_stream_call =
    bidi_call<&service_type::RequestGreetStream, pb::GreetRequest, pb::GreetReply>;
using greet_batch_call =
    bidi_call<&service_type::RequestGreetBatchStream, pb::GreetBatch, pb::GreetReplyBatch>;

class cq_engine final : public grpc_engine {
 public:
  cq_engine(std::size_t threads, std::vector<int> cpus)
      : threads_(std::max<std::size_t>(1, threads)), cpus_(std::move(cpus)) {}
  ~cq_engine() override { stop(); }

  void add_to(grpc::ServerBuilder& builder) override {
    builder.RegisterService(&service_);
    for (std::size_t i = 0; i < threads_; ++i) queues_.push_back(builder.AddCompletionQueue());
  }

  void start() override {
    for (std::size_t i = 0; i < queues_.size(); ++i) {
      const queue_slot slot{&service_, queues_[i].get(), &requests_, &live_};
      // Unary calls arrive fastest: keep several requested so none waits for the thread.
      for (int n = 0; n < unary_waiting; ++n) {
        new greet_call(slot);
        new get_call(slot);
      }
      new expand_call(slot);
      new collect_call(slot);
      new update_call(slot);
      new greet_stream_call(slot);
      new greet_batch_call(slot);
      std::vector<int> cpu;
      if (!cpus_.empty()) cpu = {cpus_[i % cpus_.size()]};
      pollers_.push_back(start_poller(*queues_[i], "grpc-cq-" + std::to_string(i), cpu));
    }
  }

  void stop() override {
    if (stopped_) return;
    stopped_ = true;
    // grpc::Server::Shutdown returns once its deadline has cancelled the calls still open, but
    // their cancelled operations may still be on the queues, and a call may then start its
    // Finish: a queue must not be shut down under it. Every call ends after a cancel, so wait
    // for all of them (the pollers are still running) before shutting the queues down.
    if (!pollers_.empty())
      while (live_.load(std::memory_order_acquire) != 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    for (auto& queue : queues_) queue->Shutdown();
    for (auto& poller : pollers_) poller.join();
    if (pollers_.empty())  // never started: the queues still need draining before they go
      for (auto& queue : queues_) drain(*queue);
  }

  std::uint64_t requests() const override { return requests_.load(std::memory_order_relaxed); }

 private:
  static constexpr int unary_waiting = 8;

  std::size_t threads_;
  std::vector<int> cpus_;
  service_type service_;
  std::vector<std::unique_ptr<grpc::ServerCompletionQueue>> queues_;
  std::vector<std::thread> pollers_;
  std::atomic<std::uint64_t> requests_{0};
  std::atomic<std::size_t> live_{0};
  bool stopped_ = false;
};

}  // namespace

std::unique_ptr<grpc_engine> make_cq_engine(std::size_t threads, std::vector<int> cpus) {
  return std::make_unique<cq_engine>(threads, std::move(cpus));
}

}  // namespace wirebench::grpc_backend
