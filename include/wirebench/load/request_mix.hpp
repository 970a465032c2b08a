#pragma once
// Which request of a mix (client_config::calls) each call sends, by weight. The picks are laid
// out once as a cycle of sum(weights) entries in the order of a smooth weighted round robin
// (nginx's upstream balancing: each request as evenly spread as its weight allows), and every
// caller walks the cycle from an offset of its own. So over any run each caller's calls match the
// weights to within one cycle, with no random draw on the per-call path: an index load and an
// increment. h2load's -i walks its URIs the same way, with every weight 1.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace wirebench {

class request_mix {
 public:
  // The most entries a cycle may have, once the weights are divided by their greatest common
  // divisor: weights like 1:10 or 37:63 fit, 1:1000000 is refused (std::invalid_argument).
  static constexpr std::uint64_t max_cycle = 100'000;

  // Each request's weight, at least 1 each (std::invalid_argument otherwise). Empty or one:
  // every call sends request 0.
  explicit request_mix(std::vector<std::uint32_t> weights = {});

  std::size_t requests() const { return weights_.empty() ? 1 : weights_.size(); }
  bool is_mix() const { return weights_.size() > 1; }
  std::size_t cycle_length() const { return cycle_.size(); }
  // The request at `position` of the cycle (position < cycle_length()).
  std::uint32_t at(std::size_t position) const { return cycle_[position]; }
  // Where caller `index` of `callers` starts: spread over the cycle, so that callers that start
  // together do not send the same request in step.
  std::size_t start_of(std::size_t index, std::size_t callers) const;

  // One caller's walk over the cycle; its own, never shared between threads.
  class walk {
   public:
    walk(const request_mix& mix, std::size_t start)
        : cycle_(mix.cycle_.data()), length_(mix.cycle_.size()), at_(start % length_) {}
    std::uint32_t next() {
      const std::uint32_t request = cycle_[at_];
      if (++at_ == length_) at_ = 0;
      return request;
    }

   private:
    const std::uint32_t* cycle_;
    std::size_t length_;
    std::size_t at_;
  };

 private:
  std::vector<std::uint32_t> weights_;
  std::vector<std::uint32_t> cycle_;  // request indices; one entry (0) without a mix
};

}  // namespace wirebench
