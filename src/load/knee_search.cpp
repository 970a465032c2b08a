#include "wirebench/load/knee_search.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wirebench {

knee_search::knee_search(knee_search_config config) : config_(config) {
  if (!(config_.min_rate > 0) || !(config_.start_rate >= config_.min_rate) ||
      !(config_.max_rate >= config_.start_rate) || !(config_.precision > 0) ||
      config_.max_steps == 0)
    throw std::invalid_argument(
        "a rate search needs 0 < min rate <= start rate <= max rate, a precision above 0 and "
        "at least one step");
}

std::optional<double> knee_search::next_rate() const {
  if (steps_ >= config_.max_steps) return std::nullopt;
  return proposal();
}

std::optional<double> knee_search::proposal() const {
  if (steps_ == 0) return config_.start_rate;
  if (std::isinf(missed_)) {  // ramping up: everything so far met
    if (met_ >= config_.max_rate) return std::nullopt;
    return std::min(met_ * 2, config_.max_rate);
  }
  if (met_ == 0) {  // ramping down: everything so far missed
    const double half = missed_ / 2;
    if (half < config_.min_rate) return std::nullopt;
    return half;
  }
  if (missed_ <= met_ * (1 + config_.precision)) return std::nullopt;
  return (met_ + missed_) / 2;
}

void knee_search::record(double rate, bool met) {
  ++steps_;
  // next_rate() only proposes rates inside the bracket, so it only narrows.
  if (met) met_ = std::max(met_, rate);
  else missed_ = std::min(missed_, rate);
}

}  // namespace wirebench
