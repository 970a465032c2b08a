#pragma once
// The client's dial counters on a run's timeline: the driving thread reads them (any thread may,
// protocol_client::counters) at each tick of its wait, and a change lands in the interval it was
// seen in, so within a tick of when it happened (wait_for_run ticks at least twice an interval).
#include <chrono>
#include <cstdint>

#include "wirebench/protocols/protocol.hpp"
#include "wirebench/stats/timeline.hpp"

namespace wirebench::detail {

class counter_sampler {
 public:
  using clock = std::chrono::steady_clock;

  // `zero`: the run's start, the timeline's.
  counter_sampler(const protocol_client& client, clock::time_point zero,
                  std::chrono::nanoseconds interval)
      : client_(client), zero_(zero), samples_(interval), last_(client.counters()) {}

  // On the driving thread, at any time during the run and once after it.
  void tick(clock::time_point now) {
    const client_counters c = client_.counters();
    if (c.reconnects == last_.reconnects && c.connect_failures == last_.connect_failures) return;
    const auto since = now > zero_ ? now - zero_ : clock::duration::zero();
    timeline_interval& row = samples_.at(static_cast<std::size_t>(since / samples_.interval()));
    row.reconnects += c.reconnects - last_.reconnects;
    row.connect_failures += c.connect_failures - last_.connect_failures;
    last_ = c;
  }
  const timeline& samples() const { return samples_; }

 private:
  const protocol_client& client_;
  const clock::time_point zero_;
  timeline samples_;
  client_counters last_;
};

}  // namespace wirebench::detail
