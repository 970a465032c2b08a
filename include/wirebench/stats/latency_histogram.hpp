#pragma once
// A log-linear latency histogram in the manner of HdrHistogram: from 1 ns up to 60 s (values above
// are clamped to 60 s and counted as saturated), fixed memory, O(1) record, mergeable across
// threads (one histogram per thread, merged when reading). Its precision is its parameter:
// 2^(bits-1) sub-buckets per power of two, so a value is kept within 1/2^(bits-1) of itself.
//   latency_histogram         bits 11: 3 significant digits, 216 KB (results carry these whole)
//   coarse_latency_histogram  bits 6: within 1/32, 8 KB (a timeline's intervals: a few hundred
//                             buckets where 3 digits keep thousands)
// Written by hand because Debian 12 ships no C or C++ HdrHistogram package.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

namespace wirebench {

template <int SubBucketBits>
class log_linear_histogram {
 public:
  static constexpr std::uint64_t highest_trackable_ns = 60'000'000'000ULL;

  log_linear_histogram();

  // Inline, with index_of(): once per call on every client's completion path.
  void record(std::uint64_t ns) {
    if (ns > highest_trackable_ns) {
      ns = highest_trackable_ns;
      ++saturated_;
    }
    ++counts_[index_of(ns)];
    ++total_;
    min_ = std::min(min_, ns);
    max_ = std::max(max_, ns);
    sum_ += ns;
  }
  // `count` values of `ns` at once (a bucket read back from elsewhere: its lowest value).
  void record_count(std::uint64_t ns, std::uint64_t count);
  void merge(const log_linear_histogram& other);

  /// A bucket with calls in it: `value_ns` is the lowest value it holds (every value in it is the
  /// same to the histogram's precision), `count` how many recorded values fell in it.
  struct bucket {
    std::uint64_t value_ns = 0;
    std::uint64_t count = 0;
    friend bool operator==(const bucket&, const bucket&) = default;
  };
  /// The non-empty buckets in value order: with min(), max(), sum_ns() and saturated() they are
  /// the whole histogram, so that a results file can carry it and histograms from several
  /// generators can be added exactly (restore(), merge()).
  std::vector<bucket> nonempty_buckets() const;
  /// The histogram those parts describe; nullopt when they cannot be one (a value that is not a
  /// bucket's lowest, buckets out of order or past 60 s, min above max, a count of 0).
  static std::optional<log_linear_histogram> restore(const std::vector<bucket>& buckets,
                                                     std::uint64_t min_ns, std::uint64_t max_ns,
                                                     std::uint64_t sum_ns, std::uint64_t saturated);
  void reset();

  std::uint64_t count() const { return total_; }
  std::uint64_t saturated() const { return saturated_; }  // values above highest_trackable_ns
  std::uint64_t min() const { return total_ ? min_ : 0; }
  std::uint64_t max() const { return max_; }
  std::uint64_t sum_ns() const { return sum_; }
  double mean() const;
  // The value that `percent` percent of the recorded values are at or below, to the histogram's
  // precision (the highest value equivalent to the bucket it falls in, never above max()).
  std::uint64_t percentile(double percent) const;
  // The lowest and the highest value of the bucket holding `ns` (a bucket's value; what
  // percentile() answers for it).
  static std::uint64_t lowest_equivalent_value(std::uint64_t ns) {
    return lowest_equivalent(index_of(std::min(ns, highest_trackable_ns)));
  }
  static std::uint64_t highest_equivalent_value(std::uint64_t ns) {
    return highest_equivalent(index_of(std::min(ns, highest_trackable_ns)));
  }

 private:
  static constexpr int sub_bucket_bits = SubBucketBits;
  static constexpr std::uint64_t sub_bucket_count = 1ULL << sub_bucket_bits;
  static constexpr std::uint64_t sub_bucket_half = sub_bucket_count / 2;
  // The fewest buckets that reach past 60 s (26 for 11 bits: 2048 << 25 > 60 s in ns).
  static constexpr int bucket_count = [] {
    int b = 1;
    while ((sub_bucket_count << (b - 1)) <= highest_trackable_ns) ++b;
    return b;
  }();
  static constexpr std::size_t counts_size = (bucket_count + 1) * sub_bucket_half;

  // Bucket b holds values in [2^(b+bits-1), 2^(b+bits)) (bucket 0 also holds [0, 2^bits)), split
  // into 2^(bits-1) sub-buckets of width 2^b: the relative error is at most 1/2^(bits-1)
  // (HdrHistogram's layout; 1/1024 for 11 bits).
  static std::size_t index_of(std::uint64_t v) {
    const int pow2_ceiling = 64 - std::countl_zero(v | (sub_bucket_count - 1));
    const int bucket = pow2_ceiling - sub_bucket_bits;
    const std::uint64_t sub = v >> bucket;  // in [1024, 2048) except in bucket 0
    return (static_cast<std::size_t>(bucket + 1) << (sub_bucket_bits - 1)) + sub - sub_bucket_half;
  }
  static std::uint64_t lowest_equivalent(std::size_t index);
  static std::uint64_t highest_equivalent(std::size_t index);

  std::vector<std::uint64_t> counts_;
  std::uint64_t total_ = 0;
  std::uint64_t saturated_ = 0;
  std::uint64_t min_ = UINT64_MAX;
  std::uint64_t max_ = 0;
  std::uint64_t sum_ = 0;  // ns: 584 years of summed latency before it wraps
};

extern template class log_linear_histogram<11>;
extern template class log_linear_histogram<6>;
using latency_histogram = log_linear_histogram<11>;
using coarse_latency_histogram = log_linear_histogram<6>;

}  // namespace wirebench
