#include "grpc_cq.hpp"

#include <pthread.h>

#include "wirebench/transport/io_pool.hpp"

namespace wirebench::grpc_backend {

void drain(grpc::CompletionQueue& queue) {
  void* tag = nullptr;
  bool ok = false;
  while (queue.Next(&tag, &ok)) {
    const auto* t = static_cast<const cq_tag*>(tag);
    t->call->on(t->what, ok);
  }
}

std::thread start_poller(grpc::CompletionQueue& queue, const std::string& name,
                         std::vector<int> cpu, std::function<void()> first) {
  std::thread poller([&queue, cpu = std::move(cpu), first = std::move(first)] {
    pin_current_thread(cpu);
    if (first) first();
    drain(queue);
  });
  pthread_setname_np(poller.native_handle(), name.substr(0, 15).c_str());
  return poller;
}

}  // namespace wirebench::grpc_backend
