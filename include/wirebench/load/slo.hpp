#pragma once
// A service-level objective a load step must meet: latency quantiles under limits and, optionally,
// a largest share of failed calls. What `wirebench run --find-max-rate --slo` searches against:
//   p99<=1ms                the 99th percentile at most 1 ms
//   p50<=200us,p99.9<=5ms   several quantiles (any in (0, 100]; max is p100)
//   p99<=1ms,errors<=0.1%   and at most 0.1% of the calls failed (1% when not given: latency
//                           quantiles are of successful calls only)
// And what `run --check` judges every point by, which may also set a floor on throughput:
//   rps>=1000               the median over repeats of successful calls per second at least 1000
//                           (with a floor alone, no latency limit is needed)
// Latency is the open loop's, from each call's intended start, so a server that falls behind
// fails the target by its queue, not only by its service time.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "wirebench/load/point_summary.hpp"

namespace wirebench {

struct slo_target {
  struct latency_limit {
    double percentile = 99;  // in (0, 100]
    std::chrono::nanoseconds at_most{0};
  };
  std::vector<latency_limit> latency;
  static constexpr double default_max_error_fraction = 0.01;
  std::optional<double> max_error_fraction;  // errors<=0.1% -> 0.001; parse() sets the default
  std::optional<double> min_rps;             // rps>=1000 (a --check only)
  std::string text;                          // as given, for tables and results

  // What the target is for: the rate search needs a latency limit and takes no throughput floor
  // (the rate is what it searches); a check takes any target.
  enum class use { search, check };

  /// Reads the syntax above; throws std::invalid_argument with the part it could not read.
  static slo_target parse(std::string_view text, use purpose = use::search);

  /// Why the repeats of one step miss the target ("p99 1.42ms > 1ms"), or nullopt when they meet
  /// it. A quantile is the median over the repeats of each repeat's own; errors are summed.
  std::optional<std::string> violation(const std::vector<repeat_result>& repeats) const;
};

}  // namespace wirebench
