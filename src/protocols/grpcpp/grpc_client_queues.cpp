#include "grpc_client_queues.hpp"

#include <grpcpp/alarm.h>

namespace wirebench::grpc_backend {
namespace {
// The queue the current thread drains, when it is a client poller.
thread_local grpc::CompletionQueue* polled_here = nullptr;

// A completion handed to a queue thread: the alarm fires at once, and the event completes it.
class deferred_completion final : public cq_call {
 public:
  deferred_completion(call_completion done, std::error_code ec, std::string why)
      : done_(std::move(done)), ec_(ec), why_(std::move(why)), tags_(this) {}
  void set(grpc::CompletionQueue* queue) {
    alarm_.Set(queue, gpr_now(GPR_CLOCK_MONOTONIC), tags_(op::finished));
  }
  void on(op, bool) override {
    std::unique_ptr<deferred_completion> self(this);
    done_(ec_, why_);
  }

 private:
  call_completion done_;
  std::error_code ec_;
  std::string why_;
  cq_tags tags_;
  grpc::Alarm alarm_;
};
}  // namespace

void client_queues::complete_later(call_completion done, std::error_code ec, std::string why) {
  (new deferred_completion(std::move(done), ec, std::move(why)))->set(pick());
}

client_queues::client_queues(std::size_t threads, const std::vector<int>& cpus) {
  for (std::size_t i = 0; i < std::max<std::size_t>(1, threads); ++i)
    queues_.push_back(std::make_unique<grpc::CompletionQueue>());
  for (std::size_t i = 0; i < queues_.size(); ++i) {
    std::vector<int> cpu;
    if (!cpus.empty()) cpu = {cpus[i % cpus.size()]};
    grpc::CompletionQueue* queue = queues_[i].get();
    pollers_.push_back(start_poller(*queue, "grpc-cli-" + std::to_string(i), cpu,
                                    [queue] { polled_here = queue; }));
  }
}

grpc::CompletionQueue* client_queues::pick() {
  for (const auto& queue : queues_)
    if (queue.get() == polled_here) return polled_here;
  return at(next_.fetch_add(1, std::memory_order_relaxed));
}

void client_queues::stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& queue : queues_) queue->Shutdown();
  for (auto& poller : pollers_) poller.join();
}

}  // namespace wirebench::grpc_backend
