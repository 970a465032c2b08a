#pragma once
// Where completions from many client threads record their latency and outcome. Sharded: a caller
// names a shard (its worker, or its thread), each shard has its own lock and histograms, and
// nothing is shared on the completion path but that shard; shards are merged when the run ends.
#include <cstdint>
#include <memory>
#include <mutex>
#include <system_error>
#include <vector>

#include "wirebench/stats/latency_histogram.hpp"
#include "wirebench/stats/outcome_counts.hpp"

namespace wirebench {

class call_recorder {
 public:
  explicit call_recorder(std::size_t shards = 8);

  // A completed call: its outcome always; its latencies only when it succeeded (a failed call's
  // time says nothing about the protocol, and its outcome is counted instead).
  void record(std::size_t shard, const std::error_code& ec, std::uint64_t latency_ns,
              std::uint64_t actual_latency_ns, bool late);
  // A shard for the calling thread (stable for the thread's life), for callers without a worker.
  std::size_t shard_for_this_thread() const;

  struct totals {
    latency_histogram latency;
    latency_histogram actual_latency;
    outcome_counts outcomes;
    std::uint64_t late = 0;
  };
  totals merged() const;

 private:
  struct shard {
    mutable std::mutex mutex;
    totals data;
  };
  std::vector<std::unique_ptr<shard>> shards_;
};

}  // namespace wirebench
