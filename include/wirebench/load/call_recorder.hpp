#pragma once
// Where completed calls record their latency and outcome, from whatever threads the client runs
// its completions on. Each recording thread gets a shard of its own, made on its first call and
// then found through a thread-local cache: a completion touches only its own thread's shard, with
// no lock and no shared read-modify-write. Shards are merged when the run is over. Every call is
// also placed on the run's timeline by when it completed (stats/timeline.hpp), measured or not.
// With a mix of requests (request_mix.hpp) each measured call is also recorded under its request.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "wirebench/load/live_counts.hpp"
#include "wirebench/load/load_spec.hpp"
#include "wirebench/stats/latency_histogram.hpp"
#include "wirebench/stats/outcome_counts.hpp"
#include "wirebench/stats/timeline.hpp"

namespace wirebench {

class call_recorder {
 public:
  using request_totals = request_result;  // one request of a mix (load_spec.hpp)
  struct totals {
    latency_histogram latency;
    latency_histogram actual_latency;
    outcome_counts outcomes;
    std::uint64_t late = 0;
    timeline calls_over_time;  // the whole run's: warm-up, window and the calls after it
    std::vector<request_totals> per_request;  // a mix's, by request index; empty without one
  };

  // One thread's records. Written only by that thread; `completions` is also read by others. A
  // driver whose every completion runs on one known thread may own one directly (the open loop's
  // shards) and merge it into the totals when that thread is done.
  class shard {
   public:
    // `requests`: a mix's request count (per-request records), or 0 or 1 for none.
    shard(bool track_actual, std::chrono::nanoseconds interval, std::size_t requests = 0)
        : track_actual_(track_actual), timeline_(interval) {
      if (requests > 1) data_.per_request.resize(requests);
    }
    shard(const shard&) = delete;
    shard& operator=(const shard&) = delete;
    // A call that completed `at_ns` after the run's start: counted always and placed on the
    // timeline (warm-up included), recorded only when `measured`: its outcome always, its
    // latencies when it succeeded (a failed call's time says nothing about the protocol, and its
    // outcome is counted instead). Without `track_actual` the actual latency is the latency (a
    // closed loop), kept once and copied when merged. `detail`: what came back with a failed call
    // (outcome_counts::error_sample). `request`: which request of a mix the call sent (ignored
    // without one).
    void record(std::uint64_t at_ns, bool measured, const std::error_code& ec,
                std::uint64_t latency_ns, std::uint64_t actual_latency_ns = 0, bool late = false,
                std::string_view detail = {}, std::uint32_t request = 0) {
      timeline_.completed(at_ns, ec, latency_ns);
      if (keeps_live_) live_.record(!ec, latency_ns);
      if (measured) {
        data_.outcomes.add(ec, detail);
        if (late) ++data_.late;
        if (!ec) {
          data_.latency.record(latency_ns);
          if (track_actual_) data_.actual_latency.record(actual_latency_ns);
        }
        if (!data_.per_request.empty()) {
          request_totals& mine = data_.per_request[request];
          mine.outcomes.add(ec, detail);
          if (late) ++mine.late;
          if (!ec) mine.latency.record(latency_ns);
        }
      }
      // Last, and released: whoever sees the count sees the records before it.
      completions_.store(completions_.load(std::memory_order_relaxed) + 1,
                         std::memory_order_release);
    }
    // Open loop: a call was due `due_ns` after the run's start, and sent `sent_ns` after it (late
    // or not), or never sent (timed out waiting for room in flight, or never reached).
    void scheduled(std::uint64_t due_ns, bool sent, std::uint64_t sent_ns = 0, bool late = false) {
      timeline_.scheduled(due_ns, sent, sent_ns, late);
    }
    std::uint64_t completions() const { return completions_.load(std::memory_order_acquire); }
    // Keep live counts (live_counts.hpp) from now on: before the recording thread starts, and
    // only when someone reads them (a progress line), so that a run without pays nothing.
    void keep_live_counts() { keeps_live_ = true; }
    // What it has recorded so far, warm-up included: any thread, while calls complete.
    void add_live(live_counts& into) const { live_.add_to(into); }
    // Adds these records to `all`; once the recording thread is done.
    void merge_into(totals& all) const;

   private:
    friend class call_recorder;
    const bool track_actual_;
    std::thread::id owner_;
    totals data_;  // but for its timeline, which timeline_ records
    timeline_recorder timeline_;
    bool keeps_live_ = false;
    live_tally live_;
    std::atomic<std::uint64_t> completions_{0};
  };

  // `track_actual`: record the latency from the actual send apart (an open loop's). `interval`:
  // the timeline's. `requests`: a mix's request count, for records per request (0 or 1: none).
  explicit call_recorder(bool track_actual = false,
                         std::chrono::nanoseconds interval = std::chrono::milliseconds(100),
                         std::size_t requests = 0);
  call_recorder(const call_recorder&) = delete;
  call_recorder& operator=(const call_recorder&) = delete;

  // The calling thread's shard.
  shard& local() {
    thread_local const call_recorder* cached_owner = nullptr;
    thread_local std::uint64_t cached_id = 0;
    thread_local shard* cached = nullptr;
    if (cached_owner != this || cached_id != id_) {
      cached = &find_or_make();
      cached_owner = this;
      cached_id = id_;
    }
    return *cached;
  }

  // Calls completed so far on every thread (measured or not). Any thread, while calls complete.
  std::uint64_t completions() const;
  // Shards made from now on keep live counts (shard::keep_live_counts): before any call.
  void keep_live_counts() { keeps_live_ = true; }
  // Every shard's live counts summed: any thread, while calls complete.
  live_counts live() const;
  // Every shard merged. Call it once the recording threads are done (the driver has seen its
  // last call complete).
  totals merged() const;

 private:
  shard& find_or_make();

  const bool track_actual_;
  const std::chrono::nanoseconds interval_;
  const std::size_t requests_;
  const std::uint64_t id_;  // unique per recorder: a new one at a freed one's address is not it
  bool keeps_live_ = false;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<shard>> shards_;  // under mutex_
};

}  // namespace wirebench
