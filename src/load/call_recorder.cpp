#include "wirebench/load/call_recorder.hpp"

#include <atomic>
#include <stdexcept>

namespace wirebench {

call_recorder::call_recorder(std::size_t shards) {
  if (shards == 0) throw std::invalid_argument("call_recorder needs at least one shard");
  for (std::size_t i = 0; i < shards; ++i) shards_.push_back(std::make_unique<shard>());
}

void call_recorder::record(std::size_t index, const std::error_code& ec, std::uint64_t latency_ns,
                           std::uint64_t actual_latency_ns, bool late) {
  shard& s = *shards_[index % shards_.size()];
  std::lock_guard lock(s.mutex);
  s.data.outcomes.add(ec);
  if (late) ++s.data.late;
  if (ec) return;
  s.data.latency.record(latency_ns);
  s.data.actual_latency.record(actual_latency_ns);
}

std::size_t call_recorder::shard_for_this_thread() const {
  static std::atomic<std::size_t> next{0};
  thread_local const std::size_t mine = next.fetch_add(1, std::memory_order_relaxed);
  return mine % shards_.size();
}

call_recorder::totals call_recorder::merged() const {
  totals all;
  for (const auto& s : shards_) {
    std::lock_guard lock(s->mutex);
    all.latency.merge(s->data.latency);
    all.actual_latency.merge(s->data.actual_latency);
    all.outcomes.merge(s->data.outcomes);
    all.late += s->data.late;
  }
  return all;
}

}  // namespace wirebench
