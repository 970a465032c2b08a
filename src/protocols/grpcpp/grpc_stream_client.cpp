// `grpcpp-stream` and `grpcpp-batch`: request-response over one long-lived bidirectional stream per
// channel, matched by request id with the mux client's pending table (the same ids, deadlines,
// late-reply accounting). grpcpp-stream sends one request per message (GreetStream); grpcpp-batch
// sends everything queued while the previous write was in flight, up to `batch` requests per
// message (GreetBatchStream), which is what batching buys when one write at a time is allowed.
//
// Threads: on grpc++'s async completion-queue API, each stream's events arrive on its client
// queue thread (grpc_client_queues.hpp), while callers write from theirs (gRPC allows one write
// in flight from any thread), so each stream's state is under a mutex; completions are collected
// under it and run after it is released, so a completion may make the next call at once. When the
// stream ends for any reason (server gone, stream reset, close()), every call on it fails with
// connection_closed.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "grpc_backend.hpp"
#include "grpc_channels.hpp"
#include "grpc_client_queues.hpp"
#include "proto/echo.grpc.pb.h"
#include "wirebench/core/error.hpp"
#include "wirebench/calls/pending_table.hpp"

namespace wirebench::grpc_backend {
namespace {

namespace pb = wirebench::echo;
using clock = std::chrono::steady_clock;

struct ready_call {
  call_completion done;
  std::error_code ec;
  std::string reply;
};

// What differs between the two streams: the message types and how requests go in and out.
struct single_wire {
  using request = pb::GreetRequest;
  using reply = pb::GreetReply;
  static auto prepare(pb::Echo::Stub& stub, grpc::ClientContext* ctx, grpc::CompletionQueue* cq) {
    return stub.PrepareAsyncGreetStream(ctx, cq);
  }
  static void pack(std::deque<pb::GreetRequest>& queued, request& out, std::size_t) {
    out = std::move(queued.front());
    queued.pop_front();
  }
  template <typename F>
  static void for_each(const reply& in, F&& f) {
    f(in);
  }
};

struct batch_wire {
  using request = pb::GreetBatch;
  using reply = pb::GreetReplyBatch;
  static auto prepare(pb::Echo::Stub& stub, grpc::ClientContext* ctx, grpc::CompletionQueue* cq) {
    return stub.PrepareAsyncGreetBatchStream(ctx, cq);
  }
  static void pack(std::deque<pb::GreetRequest>& queued, request& out, std::size_t batch) {
    out.Clear();
    for (std::size_t i = 0; i < batch && !queued.empty(); ++i) {
      *out.add_requests() = std::move(queued.front());
      queued.pop_front();
    }
  }
  template <typename F>
  static void for_each(const reply& in, F&& f) {
    for (const pb::GreetReply& r : in.replies()) f(r);
  }
};

template <typename Wire>
class stream_channel final : public cq_call {
 public:
  stream_channel(pb::Echo::Stub& stub, client_queues& queues, grpc::CompletionQueue* queue,
                 std::size_t max_in_flight, std::size_t batch)
      : queues_(queues),
        tags_(this),
        table_({.max_in_flight = max_in_flight}),
        table_max_(max_in_flight),
        batch_(batch) {
    stream_ = Wire::prepare(stub, &context_, queue);
    std::lock_guard lock(mutex_);  // the start may complete on the queue thread at once
    stream_->StartCall(tags_(op::started));
  }

  client_counters counters() {
    std::lock_guard lock(mutex_);
    return counters_;
  }

  // Takes the call unless the stream has max_in_flight calls already (then returns false and
  // leaves `done` to the caller, who may try another stream). Never completes the call here: a
  // call that cannot be made is completed on a queue thread.
  bool call(std::string_view name, clock::time_point deadline, call_completion& done) {
    std::unique_lock lock(mutex_);
    if (finished_) {
      lock.unlock();
      queues_.complete_later(std::move(done), end_reason_, status_.error_message());
      return true;
    }
    if (table_.in_flight() >= table_max_) return false;
    // The table hands the completion back when the call ends; it only queues it (under the
    // lock), and run_ready() runs it once the lock is released.
    const auto id = table_.add(
        [this, expected = expected_greeting(name), done = std::move(done)](
            std::error_code ec, std::string_view reply) mutable {
          if (!ec && reply != expected) ec = errc::wrong_reply;
          ready_.push_back({std::move(done), ec, std::string(reply)});
        },
        deadline, nullptr);
    pb::GreetRequest& r = queued_.emplace_back();
    r.set_id(id);
    r.set_name(std::string(name));
    if (may_write()) write_next();
    return true;
  }

  // Times out what is due; returns when this stream next needs the timer.
  std::optional<clock::time_point> expire(clock::time_point now) {
    std::unique_lock lock(mutex_);
    std::vector<call_completion> expired;
    table_.expire(now, expired);
    for (auto& done : expired) done(errc::timeout, {});
    const auto next = table_.next_deadline();
    run_ready(lock);
    return next;
  }

  void close_and_wait() {
    context_.TryCancel();
    std::unique_lock lock(mutex_);
    ended_.wait(lock, [this] { return done_; });
  }

  void on(op what, bool ok) override {
    std::unique_lock lock(mutex_);
    switch (what) {
      case op::started:
        if (!ok) {  // never under way: Finish tells why
          over_ = true;
          break;
        }
        started_ = true;
        read_next();
        if (may_write()) write_next();
        break;
      case op::read:
        reading_ = false;
        if (!ok) {  // the stream is over: Finish follows with its status
          over_ = true;
          break;
        }
        complete_replies();
        read_next();
        // The completions may make the next calls at once: hold the writes until they all have,
        // so that grpcpp-batch sends those calls in one message (380k calls/s, 129k without).
        corked_ = true;
        run_ready(lock);
        lock.lock();
        corked_ = false;
        if (may_write()) write_next();
        break;
      case op::wrote:
        writing_ = false;
        if (!ok) over_ = true;  // the stream broke
        else if (may_write()) write_next();
        break;
      case op::finished:
        return end(lock);
    }
    // Finish once the stream is over and no read or write of ours is still outstanding.
    if (over_ && !reading_ && !writing_ && !finishing_) {
      finishing_ = true;
      stream_->Finish(&status_, tags_(op::finished));
    }
    run_ready(lock);
  }

 private:
  bool may_write() const {
    return started_ && !writing_ && !corked_ && !over_ && !queued_.empty();
  }
  void write_next() {
    Wire::pack(queued_, out_, batch_);
    writing_ = true;
    stream_->Write(out_, tags_(op::wrote));
  }
  void read_next() {
    reading_ = true;
    stream_->Read(&in_, tags_(op::read));
  }
  void complete_replies() {
    Wire::for_each(in_, [this](const pb::GreetReply& r) {
      // Ids are 32-bit on our side; anything larger was never issued (counted as unknown).
      const auto id = r.id() <= UINT32_MAX ? static_cast<std::uint32_t>(r.id()) : 0u;
      call_completion done;
      switch (table_.take(id, done)) {
        case reply_match::late: ++counters_.late_replies; break;
        case reply_match::unknown: ++counters_.unknown_replies; break;
        case reply_match::completed: done({}, r.greeting()); break;  // queues it in ready_
      }
    });
  }
  void end(std::unique_lock<std::mutex>& lock) {
    finished_ = true;
    queued_.clear();
    // A stream that never reached the server: connect_failed, or tls_failed when the handshake
    // failed; any other end: connection_closed. Later calls fail the same way.
    if (const std::error_code why = error_for(status_);
        why == errc::connect_failed || why == errc::tls_failed)
      end_reason_ = why;
    std::vector<unanswered_call> lost;
    table_.take_all(lost);
    // With gRPC's words for why the stream ended (a failed handshake says what failed).
    for (unanswered_call& c : lost) c.done(end_reason_, status_.error_message());  // queues each in ready_
    run_ready(lock);
    lock.lock();
    done_ = true;
    ended_.notify_all();  // under the lock: the waiter may destroy us as soon as it returns
  }
  // Releases the lock, then runs the collected completions (they may call again).
  void run_ready(std::unique_lock<std::mutex>& lock) {
    std::vector<ready_call> ready = std::move(ready_);
    ready_.clear();
    lock.unlock();
    for (ready_call& r : ready) r.done(r.ec, r.reply);
  }

  client_queues& queues_;
  cq_tags tags_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::ClientAsyncReaderWriter<typename Wire::request, typename Wire::reply>>
      stream_;
  grpc::Status status_;
  std::mutex mutex_;
  std::condition_variable ended_;
  pending_table table_;
  std::size_t table_max_;
  std::size_t batch_;
  std::deque<pb::GreetRequest> queued_;  // waiting for the one write gRPC allows at a time
  typename Wire::request out_;           // the message being written
  typename Wire::reply in_;              // the message being read
  std::vector<ready_call> ready_;
  std::error_code end_reason_ = errc::connection_closed;
  client_counters counters_;  // under mutex_
  bool started_ = false;
  bool reading_ = false;
  bool writing_ = false;
  bool corked_ = false;     // completions are running on the queue thread: writes wait for them
  bool over_ = false;       // the stream ended or broke: nothing more may be started on it
  bool finishing_ = false;  // Finish is under way
  bool finished_ = false;   // no more calls
  bool done_ = false;       // Finish has completed: the channel may be destroyed
};

template <typename Wire>
class stream_client final : public protocol_client {
 public:
  stream_client(const client_config& c, std::size_t batch)
      : timeout_(c.reply_timeout), queues_(c.threads, c.cpus) {
    const std::size_t max_in_flight = c.depth == 0 ? 65536 : c.depth;
    for (auto& channel : open_channels(c)) {
      stubs_.push_back(pb::Echo::NewStub(channel));
      streams_.push_back(std::make_unique<stream_channel<Wire>>(
          *stubs_.back(), queues_, queues_.at(streams_.size()), max_in_flight, batch));
    }
    timer_ = std::thread([this] { run_timer(); });
  }
  ~stream_client() override { close(); }

  // A load driver's caller stays on stream `lane % streams`: with --depth, `depth` callers share
  // each stream, which then holds all their calls (round robin alone put a caller's next call on
  // a stream still full of others', and it was rejected). A call's deadline is its own, kept by
  // the stream's table (gRPC's deadline is the stream's: it would end them all): an open loop's
  // call that waited for room has only what is left of its timeout, not a new one.
  void async_greet(std::string_view name, call_options options, call_completion done) override {
    const std::size_t lane =
        options.has_lane() ? options.lane : next_.fetch_add(1, std::memory_order_relaxed);
    const auto deadline = options.has_deadline() ? options.deadline : clock::now() + timeout_;
    place(lane, name, deadline, std::move(done));
    if (options.has_deadline()) expire_by(deadline);
  }

  void close() override {
    {
      std::lock_guard lock(timer_mutex_);
      if (closed_) return;
      closed_ = true;
    }
    timer_wake_.notify_all();
    timer_.join();
    for (auto& s : streams_) s->close_and_wait();
    stopped_.store(true, std::memory_order_release);  // no queue thread is left after this
    queues_.stop();
  }

  client_counters counters() const override {
    client_counters sum;
    for (const auto& s : streams_) {
      const auto c = s->counters();
      sum.late_replies += c.late_replies;
      sum.unknown_replies += c.unknown_replies;
    }
    return sum;
  }

 private:
  // On stream `first % streams`, or the next one with room; rejected when every one is full.
  void place(std::size_t first, std::string_view name, clock::time_point deadline,
             call_completion done) {
    if (stopped_.load(std::memory_order_acquire)) return done(errc::connection_closed, {});
    for (std::size_t k = 0; k < streams_.size(); ++k)
      if (streams_[(first + k) % streams_.size()]->call(name, deadline, done)) return;
    queues_.complete_later(std::move(done), errc::rejected);
  }

  // Wakes the timer thread early for a call due before it would wake. Called after the call is
  // in its stream's table: a timer that looked before then sees the lowered wake_at_. Most calls
  // are due after the wake (an open loop's run late by less than a timeout) and take no lock: a
  // stale, earlier wake only makes the timer look again sooner, and find this call then.
  void expire_by(clock::time_point deadline) {
    if (deadline >= wake_at_.load(std::memory_order_relaxed)) return;
    std::lock_guard lock(timer_mutex_);
    if (deadline >= wake_at_.load(std::memory_order_relaxed)) return;
    wake_at_.store(deadline, std::memory_order_relaxed);
    timer_wake_.notify_one();
  }

  // One thread for every stream's deadlines. A call with the reply timeout is due after the
  // thread's wake (set at most one timeout from an earlier now); one with an earlier deadline of
  // its own lowers the wake (expire_by).
  void run_timer() {
    std::unique_lock lock(timer_mutex_);
    while (!closed_) {
      wake_at_.store(clock::time_point::max(), std::memory_order_relaxed);  // calls from here on lower it
      lock.unlock();
      auto wake = clock::now() + timeout_;
      for (auto& s : streams_)
        if (auto next = s->expire(clock::now())) wake = std::min(wake, *next);
      lock.lock();
      wake = std::min(wake_at_.load(std::memory_order_relaxed), wake);
      wake_at_.store(wake, std::memory_order_relaxed);
      while (!closed_ && clock::now() < (wake = wake_at_.load(std::memory_order_relaxed)))
        timer_wake_.wait_until(lock, wake);
    }
  }

  clock::duration timeout_;
  client_queues queues_;
  std::vector<std::unique_ptr<pb::Echo::Stub>> stubs_;
  std::vector<std::unique_ptr<stream_channel<Wire>>> streams_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stopped_{false};
  std::mutex timer_mutex_;
  std::condition_variable timer_wake_;
  // When the timer thread wakes next: written under timer_mutex_, read without it first.
  std::atomic<clock::time_point> wake_at_{clock::time_point::max()};
  bool closed_ = false;
  std::thread timer_;
};

}  // namespace

std::unique_ptr<protocol_client> make_stream_client(const client_config& config, std::size_t batch) {
  if (batch <= 1) return std::make_unique<stream_client<single_wire>>(config, 1);
  return std::make_unique<stream_client<batch_wire>>(config, batch);
}

}  // namespace wirebench::grpc_backend
