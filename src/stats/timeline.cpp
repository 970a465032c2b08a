#include "wirebench/stats/timeline.hpp"

#include <algorithm>

namespace wirebench {
namespace {

// Adds `from`'s buckets to `into`'s: both in value order, from the same layout.
void merge_buckets(std::vector<coarse_latency_histogram::bucket>& into,
                   const std::vector<coarse_latency_histogram::bucket>& from) {
  if (from.empty()) return;
  std::vector<coarse_latency_histogram::bucket> out;
  out.reserve(into.size() + from.size());
  auto a = into.begin();
  auto b = from.begin();
  while (a != into.end() || b != from.end()) {
    if (b == from.end() || (a != into.end() && a->value_ns < b->value_ns)) {
      out.push_back(*a++);
    } else if (a == into.end() || b->value_ns < a->value_ns) {
      out.push_back(*b++);
    } else {
      out.push_back({a->value_ns, a->count + b->count});
      ++a;
      ++b;
    }
  }
  into = std::move(out);
}

}  // namespace

std::uint64_t timeline_interval::completed() const {
  std::uint64_t n = 0;
  for (std::uint64_t c : outcomes) n += c;
  return n;
}

void timeline_interval::merge(const timeline_interval& other) {
  for (std::size_t i = 0; i < outcome_count; ++i) outcomes[i] += other.outcomes[i];
  due += other.due;
  sent += other.sent;
  late += other.late;
  workers += other.workers;
  reconnects += other.reconnects;
  connect_failures += other.connect_failures;
  max_ns = std::max(max_ns, other.max_ns);
  merge_buckets(latency, other.latency);
}

timeline::timeline(std::chrono::nanoseconds interval) : interval_(interval) {}

void timeline::merge(const timeline& other, std::size_t offset) {
  for (std::size_t i = 0; i < other.intervals_.size(); ++i)
    at(i + offset).merge(other.intervals_[i]);
  span_ = std::max(span_, other.span_ + interval_ * static_cast<std::int64_t>(offset));
}

std::uint64_t timeline::percentile(std::size_t index, double percent) const {
  if (index >= intervals_.size()) return 0;
  const timeline_interval& row = intervals_[index];
  if (row.latency.empty()) return 0;
  coarse_latency_histogram h;
  for (const auto& b : row.latency) h.record_count(b.value_ns, b.count);
  // Read back from buckets, the histogram's max is the top bucket's lowest value, where
  // percentile() stops: widened to the bucket again, then held to the exact max.
  return std::min(coarse_latency_histogram::highest_equivalent_value(h.percentile(percent)),
                  row.max_ns);
}

timeline_recorder::timeline_recorder(std::chrono::nanoseconds interval)
    : interval_ns_(static_cast<std::uint64_t>(std::max<std::int64_t>(interval.count(), 1))),
      timeline_(std::chrono::nanoseconds(interval_ns_)),
      current_end_ns_(0) {}

// The first completion of a later interval: the last one's latencies become its buckets.
void timeline_recorder::move_to(std::uint64_t at_ns) {
  if (latency_.count() > 0) {
    timeline_.at(current_).latency = latency_.nonempty_buckets();
    latency_.reset();
  }
  current_ = static_cast<std::size_t>(at_ns / interval_ns_);
  current_end_ns_ = (current_ + 1) * interval_ns_;
  timeline_.at(current_);
}

void timeline_recorder::scheduled(std::uint64_t due_ns, bool sent, std::uint64_t sent_ns,
                                  bool late) {
  ++timeline_.at(static_cast<std::size_t>(due_ns / interval_ns_)).due;
  if (!sent) return;
  timeline_interval& row = timeline_.at(static_cast<std::size_t>(sent_ns / interval_ns_));
  ++row.sent;
  if (late) ++row.late;
}

timeline timeline_recorder::result() const {
  timeline out = timeline_;
  if (latency_.count() > 0) out.at(current_).latency = latency_.nonempty_buckets();
  return out;
}

}  // namespace wirebench
