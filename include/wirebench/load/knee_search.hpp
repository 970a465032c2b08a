#pragma once
// The search for the highest rate that still meets a target (the knee of a latency-throughput
// curve), as users otherwise do by hand (wrk2#96, redis#9043). Sans-IO: it proposes rates and is
// told whether each met the target; whoever runs the steps (wirebench run) does the rest.
//
// An exponential ramp from the start rate (doubling while the target is met, halving while it is
// not), then bisection between the highest rate met and the lowest missed, until they are within
// `precision` of each other. Each step is one load of `--repeats` runs, judged on their medians,
// so one noisy run does not move the answer.
#include <cstddef>
#include <limits>
#include <optional>

namespace wirebench {

struct knee_search_config {
  double start_rate = 1000;    // calls/s of the first step
  double max_rate = 1e8;       // the ramp stops here (met at this rate: the answer is "at least")
  double min_rate = 1;         // below this the search gives up (nothing met)
  double precision = 0.05;     // stop when lowest missed <= highest met * (1 + precision)
  std::size_t max_steps = 40;  // a bound on the run's length whatever happens
};

class knee_search {
 public:
  /// Throws std::invalid_argument when the rates or the precision make no search.
  explicit knee_search(knee_search_config config);

  /// The rate of the next step, or nullopt when the search is over.
  std::optional<double> next_rate() const;
  /// What the step at `rate` (the last next_rate()) found.
  void record(double rate, bool met);

  /// The highest rate that met the target (0: none did).
  double highest_met() const { return met_; }
  /// The lowest rate that missed it (infinity: none did, up to max_rate).
  double lowest_missed() const { return missed_; }
  std::size_t steps() const { return steps_; }
  /// Whether the search ended at max_steps with its bracket still wider than the precision.
  bool out_of_steps() const { return steps_ >= config_.max_steps && proposal().has_value(); }

 private:
  std::optional<double> proposal() const;  // next_rate() without the step limit
  knee_search_config config_;
  double met_ = 0;
  double missed_ = std::numeric_limits<double>::infinity();
  std::size_t steps_ = 0;
};

}  // namespace wirebench
