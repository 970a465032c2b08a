#include "wirebench/load/call_recorder.hpp"

namespace wirebench {

namespace {
std::atomic<std::uint64_t> next_recorder_id{1};
}  // namespace

call_recorder::call_recorder(bool track_actual, std::chrono::nanoseconds interval,
                             std::size_t requests)
    : track_actual_(track_actual),
      interval_(interval),
      requests_(requests),
      id_(next_recorder_id.fetch_add(1)) {}

call_recorder::shard& call_recorder::find_or_make() {
  const auto me = std::this_thread::get_id();
  std::lock_guard lock(mutex_);
  for (auto& s : shards_)
    if (s->owner_ == me) return *s;
  shards_.push_back(std::unique_ptr<shard>(new shard(track_actual_, interval_, requests_)));
  shards_.back()->owner_ = me;
  if (keeps_live_) shards_.back()->keep_live_counts();
  return *shards_.back();
}

std::uint64_t call_recorder::completions() const {
  std::uint64_t n = 0;
  std::lock_guard lock(mutex_);
  for (const auto& s : shards_) n += s->completions_.load(std::memory_order_acquire);
  return n;
}

void call_recorder::shard::merge_into(totals& all) const {
  all.latency.merge(data_.latency);
  all.actual_latency.merge(track_actual_ ? data_.actual_latency : data_.latency);
  all.outcomes.merge(data_.outcomes);
  all.late += data_.late;
  all.calls_over_time.merge(timeline_.result());
  if (all.per_request.size() < data_.per_request.size()) all.per_request.resize(data_.per_request.size());
  for (std::size_t i = 0; i < data_.per_request.size(); ++i) {
    all.per_request[i].latency.merge(data_.per_request[i].latency);
    all.per_request[i].outcomes.merge(data_.per_request[i].outcomes);
    all.per_request[i].late += data_.per_request[i].late;
  }
}

call_recorder::totals call_recorder::merged() const {
  totals all;
  all.calls_over_time = timeline(interval_);
  if (requests_ > 1) all.per_request.resize(requests_);  // every request, even one never sent
  std::lock_guard lock(mutex_);
  for (const auto& s : shards_) s->merge_into(all);
  return all;
}

live_counts call_recorder::live() const {
  live_counts sum;
  std::lock_guard lock(mutex_);
  for (const auto& s : shards_) s->add_live(sum);
  return sum;
}

}  // namespace wirebench
