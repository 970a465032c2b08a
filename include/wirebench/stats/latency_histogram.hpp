#pragma once
// A log-linear latency histogram in the manner of HdrHistogram: 3 significant digits from 1 ns up
// to 60 s (values above are clamped to 60 s and counted as saturated), fixed memory, O(1) record,
// mergeable across threads (one histogram per thread, merged when reading).
// Written by hand because Debian 12 ships no C or C++ HdrHistogram package.
#include <array>
#include <cstdint>
#include <vector>

namespace wirebench {

class latency_histogram {
 public:
  static constexpr std::uint64_t highest_trackable_ns = 60'000'000'000ULL;

  latency_histogram();

  void record(std::uint64_t ns);
  void merge(const latency_histogram& other);
  void reset();

  std::uint64_t count() const { return total_; }
  std::uint64_t saturated() const { return saturated_; }  // values above highest_trackable_ns
  std::uint64_t min() const { return total_ ? min_ : 0; }
  std::uint64_t max() const { return max_; }
  double mean() const;
  // The value that `percent` percent of the recorded values are at or below, to 3 significant
  // digits (the highest value equivalent to the bucket it falls in, never above max()).
  std::uint64_t percentile(double percent) const;

 private:
  static constexpr int sub_bucket_bits = 11;  // 2048 sub-buckets: 3 significant digits
  static constexpr std::uint64_t sub_bucket_count = 1ULL << sub_bucket_bits;
  static constexpr std::uint64_t sub_bucket_half = sub_bucket_count / 2;
  static constexpr int bucket_count = 26;  // 2048 << 25 > 60 s in ns
  static constexpr std::size_t counts_size = (bucket_count + 1) * sub_bucket_half;

  static std::size_t index_of(std::uint64_t v);
  static std::uint64_t highest_equivalent(std::size_t index);

  std::vector<std::uint64_t> counts_;
  std::uint64_t total_ = 0;
  std::uint64_t saturated_ = 0;
  std::uint64_t min_ = UINT64_MAX;
  std::uint64_t max_ = 0;
  std::uint64_t sum_ = 0;  // ns: 584 years of summed latency before it wraps
};

}  // namespace wirebench
