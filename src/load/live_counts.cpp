#include "wirebench/load/live_counts.hpp"

#include <cmath>

namespace wirebench {

live_counts& live_counts::operator+=(const live_counts& other) {
  completed += other.completed;
  failed += other.failed;
  for (std::size_t i = 0; i < buckets; ++i) latency[i] += other.latency[i];
  return *this;
}

live_counts live_counts::since(const live_counts& earlier) const {
  live_counts d;
  d.completed = completed - earlier.completed;
  d.failed = failed - earlier.failed;
  for (std::size_t i = 0; i < buckets; ++i) d.latency[i] = latency[i] - earlier.latency[i];
  return d;
}

std::optional<std::uint64_t> live_counts::percentile_ns(double percent) const {
  const std::uint64_t ok = completed - failed;
  if (ok == 0) return std::nullopt;
  // The rank of the call at `percent`, counted from 1, as latency_histogram counts it.
  const auto rank = static_cast<std::uint64_t>(std::ceil(percent / 100.0 * static_cast<double>(ok)));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < buckets; ++i) {
    seen += latency[i];
    if (seen >= (rank == 0 ? 1 : rank)) return bucket_top(i);
  }
  return bucket_top(buckets - 1);
}

void live_tally::add_to(live_counts& into) const {
  std::uint64_t ok = 0;
  for (std::size_t i = 0; i < live_counts::buckets; ++i) {
    const std::uint64_t n = latency_[i].load(std::memory_order_relaxed);
    into.latency[i] += n;
    ok += n;
  }
  const std::uint64_t failed = failed_.load(std::memory_order_relaxed);
  into.failed += failed;
  into.completed += ok + failed;
}

}  // namespace wirebench
