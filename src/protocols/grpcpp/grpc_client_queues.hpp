#pragma once
// The clients' completion queues: `threads` queues, each drained by one thread of ours
// (`grpc-cli-N`, pinned to cpus[i % size] when given). A call's operations all go to the queue it
// started on, so its completion runs there; a call started from one of these threads (a closed
// loop's next call, made from the last one's completion) stays on that thread's queue, so a
// caller's calls need no hand-off between threads.
#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "grpc_cq.hpp"
#include "wirebench/core/call_completion.hpp"

namespace wirebench::grpc_backend {

class client_queues {
 public:
  client_queues(std::size_t threads, const std::vector<int>& cpus);
  ~client_queues() { stop(); }
  client_queues(const client_queues&) = delete;
  client_queues& operator=(const client_queues&) = delete;

  // The calling thread's own queue if it is one of ours, else the next one round robin.
  grpc::CompletionQueue* pick();
  grpc::CompletionQueue* at(std::size_t i) { return queues_[i % queues_.size()].get(); }
  std::size_t size() const { return queues_.size(); }

  // Runs done(ec, why) on one of the queue threads soon (through a grpc::Alarm due now): for a
  // call that fails before it starts, which must not complete on its caller's thread.
  void complete_later(call_completion done, std::error_code ec, std::string why = {});

  // Shuts every queue down and joins its thread; no operation may be pending. Idempotent.
  void stop();

 private:
  std::vector<std::unique_ptr<grpc::CompletionQueue>> queues_;
  std::vector<std::thread> pollers_;
  std::atomic<std::size_t> next_{0};
  bool stopped_ = false;
};

}  // namespace wirebench::grpc_backend
