#pragma once
// A run over time: for each interval (100 ms by default) of the run, counted from its start (the
// warm-up's first call), how many calls completed and how, their latency, and what an open loop
// offered and sent. What a whole-window histogram hides shows here: a warm-up stall, a server's
// pause, a reconnect storm, a collapse half-way through.
//
// timeline_recorder is one recording thread's (a call_recorder shard's): a completion touches its
// current interval's counts and a coarse histogram, with no lock and no allocation; only the
// first call of an interval appends a row and turns the histogram into that row's buckets. The
// threads' timelines are merged once they are done (timeline::merge).
#include <array>
#include <chrono>
#include <cstdint>
#include <system_error>
#include <vector>

#include "wirebench/stats/latency_histogram.hpp"
#include "wirebench/stats/outcome_counts.hpp"

namespace wirebench {

// What one interval saw. Completions are placed by when they completed; an open loop's arrivals
// by when they were due (`due`), and its sends by when they went out (`sent`, `late`).
struct timeline_interval {
  std::array<std::uint64_t, outcome_count> outcomes{};  // calls completed in it, by outcome
  std::uint64_t due = 0;   // open loop: calls the schedule asked for (the offered rate)
  std::uint64_t sent = 0;  // open loop: calls handed to the client
  std::uint64_t late = 0;  // open loop: of those, sent more than late_after after they were due
  // A closed loop in worker stages: the workers calling at the interval's last step of the ramp
  // (a gauge, as k6's vus; the sum of the generators' in a merge). 0 otherwise.
  std::uint64_t workers = 0;
  std::uint64_t reconnects = 0;        // the client's re-dials (sampled: the whole client's)
  std::uint64_t connect_failures = 0;  // the client's failed dials (sampled likewise)
  std::uint64_t max_ns = 0;            // the slowest successful call, exact
  // The successful calls' latencies, as a coarse_latency_histogram's non-empty buckets (within
  // 1/32): enough for p50 and p99 on a chart, and exactly mergeable across threads and files.
  std::vector<coarse_latency_histogram::bucket> latency;

  std::uint64_t completed() const;
  std::uint64_t ok() const { return outcomes[static_cast<std::size_t>(outcome::ok)]; }
  void merge(const timeline_interval& other);
};

class timeline {
 public:
  explicit timeline(std::chrono::nanoseconds interval = std::chrono::milliseconds(100));

  std::chrono::nanoseconds interval() const { return interval_; }
  // How long the run lasted, from its start to its last call's completion (its drivers set it):
  // the last interval is only partly covered, and a rate over it must know by how much.
  std::chrono::nanoseconds span() const { return span_; }
  void set_span(std::chrono::nanoseconds span) { span_ = span; }
  std::size_t size() const { return intervals_.size(); }
  const std::vector<timeline_interval>& intervals() const { return intervals_; }
  // Interval `index`, made (with those before it) if the timeline is shorter.
  timeline_interval& at(std::size_t index) {
    if (index >= intervals_.size()) intervals_.resize(index + 1);
    return intervals_[index];
  }
  // Adds `other`'s interval i to interval i + offset (other's intervals must be as long); the span
  // covers both.
  void merge(const timeline& other, std::size_t offset = 0);
  // Interval `index`'s successful calls' latency at `percent` (0 without any): within 1/32, and
  // never above the interval's exact max.
  std::uint64_t percentile(std::size_t index, double percent) const;

 private:
  std::chrono::nanoseconds interval_;
  std::chrono::nanoseconds span_{0};
  std::vector<timeline_interval> intervals_;
};

class timeline_recorder {
 public:
  explicit timeline_recorder(std::chrono::nanoseconds interval);

  // A call completed `at_ns` after the run's start: `latency_ns` is recorded when it succeeded.
  // Inline: once per call. Completions on one thread come in time order (a completion earlier
  // than the current interval is counted in it).
  void completed(std::uint64_t at_ns, const std::error_code& ec, std::uint64_t latency_ns) {
    if (at_ns >= current_end_ns_) move_to(at_ns);
    timeline_interval& row = timeline_.at(current_);
    if (ec) {
      ++row.outcomes[static_cast<std::size_t>(classify(ec))];
      return;
    }
    ++row.outcomes[static_cast<std::size_t>(outcome::ok)];
    latency_.record(latency_ns);
    row.max_ns = std::max(row.max_ns, latency_ns);
  }
  // Open loop: a call was due at `due_ns`; sent at `sent_ns` (late or not), or never (!sent).
  void scheduled(std::uint64_t due_ns, bool sent, std::uint64_t sent_ns, bool late);

  // The timeline so far (the current interval's histogram included). Once recording is done.
  timeline result() const;

 private:
  void move_to(std::uint64_t at_ns);

  const std::uint64_t interval_ns_;
  timeline timeline_;
  // The interval completions go to now (by index: the rows move as they grow), and its end.
  std::size_t current_ = 0;
  std::uint64_t current_end_ns_;
  coarse_latency_histogram latency_;  // the current interval's, until it is over
};

}  // namespace wirebench
