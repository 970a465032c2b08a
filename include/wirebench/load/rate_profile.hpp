#pragma once
// An open loop's rate over time as stages (k6's ramping-arrival-rate): from 0 calls/s, each
// stage ramps the rate linearly to its target over its duration ("1000@10s,1000@30s,0@5s": up
// to 1000/s in 10 s, held 30 s, down to 0 in 5 s; a stage of 0 s jumps). Sans-IO: the expected
// number of calls by any time, and its inverse, the time by which a number of calls is due,
// which is how arrival_schedule lays a ramped schedule out (a uniform one's call i is due at
// time_of(i); a Poisson one's at time_of of a unit-rate Poisson process, time rescaled).
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wirebench {

struct rate_stage {
  double target = 0;                  // calls/s at the stage's end (>= 0)
  std::chrono::nanoseconds duration;  // >= 0
  friend bool operator==(const rate_stage&, const rate_stage&) = default;
};

class rate_profile {
 public:
  // Throws std::invalid_argument when a target is negative or not finite, a duration negative,
  // or the stages together last no time. (Stages that hold no call are an open loop's to refuse:
  // a closed loop's workers ramp on the same stages, 1@1s being one worker.)
  explicit rate_profile(std::vector<rate_stage> stages);

  // "RATE@DURATION,..." (durations as parse_duration() reads them: 500ms, 20s, 120s): the profile, or nullopt with a one-line
  // `problem` naming the stage.
  static std::optional<rate_profile> parse(std::string_view text, std::string& problem);
  // The stages as parse() reads them ("0@0s" style, durations in their largest whole unit).
  std::string text() const;

  const std::vector<rate_stage>& stages() const { return stages_; }
  std::chrono::nanoseconds duration() const { return duration_; }
  double peak() const;
  // The rate at `t` after the start (0 past the end).
  double rate_at(double seconds) const;
  // Calls expected by `seconds` after the start: the rate's integral.
  double calls_by(double seconds) const;
  double total_calls() const { return calls_by(seconds_); }
  // The time (seconds) by which `calls` are due: calls_by's inverse; nullopt for calls at or
  // past the total.
  std::optional<double> time_of(double calls) const;

 private:
  std::vector<rate_stage> stages_;
  std::chrono::nanoseconds duration_{0};
  double seconds_ = 0;
};

}  // namespace wirebench
