#include "wirebench/load/request_mix.hpp"

#include <numeric>
#include <stdexcept>
#include <string>

namespace wirebench {

request_mix::request_mix(std::vector<std::uint32_t> weights) : weights_(std::move(weights)) {
  std::uint64_t divisor = 0;
  for (const std::uint32_t w : weights_) {
    if (w == 0) throw std::invalid_argument("a request's weight is at least 1");
    divisor = std::gcd(divisor, std::uint64_t{w});
  }
  std::uint64_t total = 0;
  for (const std::uint32_t w : weights_) total += w / divisor;
  if (total > max_cycle)
    throw std::invalid_argument("weights whose sum, once divided by their common divisor, is " +
                                std::to_string(total) + ": at most " + std::to_string(max_cycle) +
                                " (round them: a share is kept to within 1/" +
                                std::to_string(max_cycle) + ")");
  if (weights_.size() < 2) {
    cycle_.assign(1, 0);
    return;
  }
  // Smooth weighted round robin: every step each request gains its weight, the richest is picked
  // and pays the total. After `total` steps each was picked exactly weight times.
  std::vector<std::int64_t> current(weights_.size(), 0);
  cycle_.reserve(total);
  for (std::uint64_t step = 0; step < total; ++step) {
    std::size_t best = 0;
    for (std::size_t i = 0; i < weights_.size(); ++i) {
      current[i] += weights_[i] / divisor;
      if (current[i] > current[best]) best = i;
    }
    current[best] -= static_cast<std::int64_t>(total);
    cycle_.push_back(static_cast<std::uint32_t>(best));
  }
}

std::size_t request_mix::start_of(std::size_t index, std::size_t callers) const {
  if (callers == 0) return 0;
  return static_cast<std::size_t>(static_cast<std::uint64_t>(index % callers) * cycle_.size() /
                                  callers);
}

}  // namespace wirebench
