#pragma once
// What the completion-queue server engine and clients share: a tag names a call and one of its
// operations; a poller is one thread of ours draining one queue and feeding each outcome back to
// its call. All of a call's operations are on one queue, so its events arrive on one thread.
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include <grpcpp/grpcpp.h>

namespace wirebench::grpc_backend {

// started: on a server, a call arrived; on a client, the call is under way.
enum class op { started, read, wrote, finished };

class cq_call {
 public:
  virtual ~cq_call() = default;
  virtual void on(op what, bool ok) = 0;
};

// What a queue hands back: which call, which operation.
struct cq_tag {
  cq_call* call;
  op what;
};

// One tag per operation of a call, made once: tags(op) is what an operation is started with.
class cq_tags {
 public:
  explicit cq_tags(cq_call* call) {
    for (const op what : {op::started, op::read, op::wrote, op::finished})
      tags_[static_cast<int>(what)] = {call, what};
  }
  void* operator()(op what) { return &tags_[static_cast<int>(what)]; }

 private:
  cq_tag tags_[4];
};

// Feeds every event of `queue` to its call until the queue is shut down and empty.
void drain(grpc::CompletionQueue& queue);

// A thread named `name` (shown by top and perf), pinned to `cpu` when one is given, draining
// `queue`, after running `first` on it. The name is set before this returns.
std::thread start_poller(grpc::CompletionQueue& queue, const std::string& name,
                         std::vector<int> cpu, std::function<void()> first = {});

}  // namespace wirebench::grpc_backend
