#pragma once
// What a run has done so far, read while it runs (the progress line on a terminal): calls
// completed and failed, and successful calls' latencies in coarse buckets, so that a reader can
// take the p99 of the last second from two readings. Each recording thread keeps a live_tally of
// its own, written by that thread alone with plain loads and stores (no locked instruction, no
// cache line shared with another writer) and read by any thread: a few nanoseconds a call.
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace wirebench {

struct live_counts {
  // Four buckets per power of two: a quantile read to within 25%, enough for a live line.
  static constexpr std::size_t buckets = 256;
  std::uint64_t completed = 0;  // every call that ended, failed ones too
  std::uint64_t failed = 0;
  std::array<std::uint64_t, buckets> latency{};  // successful calls, by bucket_of(ns)

  static constexpr std::size_t bucket_of(std::uint64_t ns) {
    if (ns < 4) return static_cast<std::size_t>(ns);
    const unsigned top = static_cast<unsigned>(std::bit_width(ns)) - 1;  // >= 2
    return 4 * (top - 1) + static_cast<std::size_t>((ns >> (top - 2)) & 3);
  }
  // The largest latency a bucket holds.
  static constexpr std::uint64_t bucket_top(std::size_t bucket) {
    if (bucket < 4) return bucket;
    const std::size_t top = bucket / 4 + 1, sub = bucket % 4;
    return top >= 63 && sub == 3 ? ~std::uint64_t{0} : ((std::uint64_t{4} + sub + 1) << (top - 2)) - 1;
  }

  live_counts& operator+=(const live_counts& other);
  // What happened between `earlier` and this reading (of the same run).
  live_counts since(const live_counts& earlier) const;
  // The latency under which `percent` of the successful calls fell (a bucket's top); nullopt
  // without a successful call.
  std::optional<std::uint64_t> percentile_ns(double percent) const;
};

// One recording thread's counts (see above).
class live_tally {
 public:
  // On the recording thread only.
  void record(bool ok, std::uint64_t latency_ns) {
    auto bump = [](std::atomic<std::uint64_t>& n) {
      n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    };
    if (ok) bump(latency_[live_counts::bucket_of(latency_ns)]);
    else bump(failed_);
  }
  // Any thread, any time.
  void add_to(live_counts& into) const;

 private:
  std::atomic<std::uint64_t> failed_{0};
  std::array<std::atomic<std::uint64_t>, live_counts::buckets> latency_{};
};

}  // namespace wirebench
