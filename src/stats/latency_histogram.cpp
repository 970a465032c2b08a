#include "wirebench/stats/latency_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace wirebench {

template <int B>
log_linear_histogram<B>::log_linear_histogram() : counts_(counts_size, 0) {}

template <int B>
std::uint64_t log_linear_histogram<B>::lowest_equivalent(std::size_t index) {
  std::size_t bucket = index >> (sub_bucket_bits - 1);
  std::uint64_t sub = (index & (sub_bucket_half - 1)) + sub_bucket_half;
  if (bucket == 0) {  // the first half-bucket run is [0, sub_bucket_half): width 1
    sub -= sub_bucket_half;
  } else {
    bucket -= 1;
  }
  return sub << bucket;
}

template <int B>
std::uint64_t log_linear_histogram<B>::highest_equivalent(std::size_t index) {
  const std::size_t bucket = index >> (sub_bucket_bits - 1);
  const std::uint64_t width = std::uint64_t{1} << (bucket == 0 ? 0 : bucket - 1);
  return lowest_equivalent(index) + width - 1;
}

template <int B>
auto log_linear_histogram<B>::nonempty_buckets() const -> std::vector<bucket> {
  std::vector<bucket> out;
  for (std::size_t i = 0; i < counts_size; ++i)
    if (counts_[i] != 0) out.push_back({lowest_equivalent(i), counts_[i]});
  return out;
}

template <int B>
std::optional<log_linear_histogram<B>> log_linear_histogram<B>::restore(
    const std::vector<bucket>& buckets, std::uint64_t min_ns, std::uint64_t max_ns,
    std::uint64_t sum_ns, std::uint64_t saturated) {
  log_linear_histogram h;
  std::size_t last = 0;
  for (std::size_t k = 0; k < buckets.size(); ++k) {
    const bucket& b = buckets[k];
    if (b.count == 0 || b.value_ns > highest_trackable_ns) return std::nullopt;
    const std::size_t i = index_of(b.value_ns);
    if (lowest_equivalent(i) != b.value_ns || (k > 0 && i <= last)) return std::nullopt;
    if (h.total_ + b.count < h.total_) return std::nullopt;  // overflow: no real run counts so many
    h.counts_[i] = b.count;
    h.total_ += b.count;
    last = i;
  }
  if (h.total_ == 0) {
    if (min_ns != 0 || max_ns != 0 || sum_ns != 0 || saturated != 0) return std::nullopt;
    return h;
  }
  // min and max must fall in the first and last buckets, saturated values in the 60 s bucket,
  // and the sum between min and max times the count.
  const std::size_t top = index_of(highest_trackable_ns);
  if (min_ns > max_ns || index_of(min_ns) != index_of(buckets.front().value_ns) ||
      index_of(max_ns) != last || (saturated > 0 && (last != top || h.counts_[top] < saturated)))
    return std::nullopt;
  const long double n = static_cast<long double>(h.total_);
  if (static_cast<long double>(sum_ns) < n * static_cast<long double>(min_ns) ||
      static_cast<long double>(sum_ns) > n * static_cast<long double>(max_ns))
    return std::nullopt;
  h.min_ = min_ns;
  h.max_ = max_ns;
  h.sum_ = sum_ns;
  h.saturated_ = saturated;
  return h;
}

template <int B>
void log_linear_histogram<B>::merge(const log_linear_histogram& other) {
  for (std::size_t i = 0; i < counts_size; ++i) counts_[i] += other.counts_[i];
  total_ += other.total_;
  saturated_ += other.saturated_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  sum_ += other.sum_;
}

template <int B>
void log_linear_histogram<B>::record_count(std::uint64_t ns, std::uint64_t count) {
  if (count == 0) return;
  if (ns > highest_trackable_ns) {
    ns = highest_trackable_ns;
    saturated_ += count;
  }
  counts_[index_of(ns)] += count;
  total_ += count;
  min_ = std::min(min_, ns);
  max_ = std::max(max_, ns);
  sum_ += ns * count;
}

template <int B>
void log_linear_histogram<B>::reset() {
  std::fill(counts_.begin(), counts_.end(), 0);
  total_ = saturated_ = max_ = 0;
  min_ = UINT64_MAX;
  sum_ = 0;
}

template <int B>
double log_linear_histogram<B>::mean() const {
  return total_ ? static_cast<double>(sum_ / static_cast<long double>(total_)) : 0.0;
}

template <int B>
std::uint64_t log_linear_histogram<B>::percentile(double percent) const {
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

template class log_linear_histogram<11>;
template class log_linear_histogram<6>;

}  // namespace wirebench
