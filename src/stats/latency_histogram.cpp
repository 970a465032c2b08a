#include "wirebench/stats/latency_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace wirebench {

latency_histogram::latency_histogram() : counts_(counts_size, 0) {}

std::uint64_t latency_histogram::highest_equivalent(std::size_t index) {
  std::size_t bucket = index >> (sub_bucket_bits - 1);
  std::uint64_t sub = (index & (sub_bucket_half - 1)) + sub_bucket_half;
  if (bucket == 0) {  // the first half-bucket run is [0, 1024): width 1
    sub -= sub_bucket_half;
  } else {
    bucket -= 1;
  }
  const std::uint64_t lowest = sub << bucket;
  return lowest + (std::uint64_t{1} << bucket) - 1;
}

void latency_histogram::merge(const latency_histogram& other) {
  for (std::size_t i = 0; i < counts_size; ++i) counts_[i] += other.counts_[i];
  total_ += other.total_;
  saturated_ += other.saturated_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
}

void latency_histogram::reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  total_ = saturated_ = max_ = 0;
  min_ = UINT64_MAX;
  sum_ = 0;
}

double latency_histogram::mean() const {
  return total_ ? static_cast<double>(sum_ / static_cast<long double>(total_)) : 0.0;
}

std::uint64_t latency_histogram::percentile(double percent) const {
  if (total_ == 0) return 0;
  if (std::isnan(percent)) percent = 100.0;  // NaN would make the cast below undefined
  percent = std::clamp(percent, 0.0, 100.0);
  // The rank of the wanted value, ceil(percent% of total). In floating point the product can land
  // a hair above an exact integer (7.0 / 100 * 100 == 7.000000000000001) and ceil() would then skip
  // to the next value (percentile(7) of 1..100 answered 8): nudge it down by a few ulps first, as
  // HdrHistogram does.
  const double rank = percent * static_cast<double>(total_) / 100.0;
  const double nudged = rank * (1.0 - 4 * std::numeric_limits<double>::epsilon());
  const auto wanted = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::ceil(nudged)), 1,
                                                total_);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts_size; ++i) {
    seen += counts_[i];
    if (seen >= wanted) return std::min(highest_equivalent(i), max_);
  }
  return max_;
}

}  // namespace wirebench
