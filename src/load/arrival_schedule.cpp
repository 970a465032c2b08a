#include "wirebench/load/arrival_schedule.hpp"

#include <cmath>
#include <stdexcept>

#include "wirebench/load/load_spec.hpp"

namespace wirebench {

std::string_view arrival_kind_name(arrival_kind k) {
  switch (k) {
    case arrival_kind::uniform: return "uniform";
    case arrival_kind::poisson: return "poisson";
    case arrival_kind::bursty: return "bursty";
  }
  return "uniform";
}

std::optional<arrival_kind> parse_arrival_kind(std::string_view name) {
  for (auto k : {arrival_kind::uniform, arrival_kind::poisson, arrival_kind::bursty})
    if (name == arrival_kind_name(k)) return k;
  return std::nullopt;
}

arrival_schedule::arrival_schedule(arrival_kind kind, double rate_per_second,
                                   std::chrono::nanoseconds duration, std::uint64_t seed,
                                   std::size_t share, std::size_t shares, std::uint64_t calls)
    : kind_(kind),
      rate_(rate_per_second),
      duration_(calls > 0 ? std::chrono::nanoseconds::max() : duration),
      calls_(calls),
      random_(seed),
      share_(share),
      shares_(shares) {
  if (shares == 0 || share >= shares)
    throw std::invalid_argument("a schedule's share must be one of its shares");
  if (!(rate_per_second > 0) || !std::isfinite(rate_per_second))
    throw std::invalid_argument("the rate must be a positive number of calls per second");
  if (calls == 0 && duration.count() <= 0) throw std::invalid_argument("the duration must be positive");
  if (kind == arrival_kind::bursty) {
    // Whole seconds only: a run shorter than a second has one, at its start.
    const auto seconds = std::max<std::int64_t>(
        1, calls > 0 ? static_cast<std::int64_t>(std::ceil(static_cast<double>(calls) / rate_per_second))
                     : std::chrono::duration_cast<std::chrono::seconds>(duration).count());
    const auto in_all = calls > 0 ? calls
                                  : static_cast<std::uint64_t>(std::llround(
                                        rate_per_second * std::chrono::duration<double>(duration).count()));
    per_second_.assign(static_cast<std::size_t>(seconds), 0);
    std::uniform_int_distribution<std::size_t> pick(0, per_second_.size() - 1);
    for (std::uint64_t i = 0; i < in_all; ++i) ++per_second_[pick(random_)];
  }
}

arrival_schedule::arrival_schedule(arrival_kind kind, rate_profile profile, std::uint64_t seed,
                                   std::size_t share, std::size_t shares)
    : arrival_schedule(kind == arrival_kind::bursty
                           ? throw std::invalid_argument("bursty arrivals have no ramp: give uniform or poisson")
                       : !(profile.total_calls() >= 1) ? throw std::invalid_argument("the stages hold no call")
                                                        : kind,
                       std::max(profile.peak(), 1.0), profile.duration(), seed, share, shares) {
  profile_.emplace(std::move(profile));
}

arrival_schedule arrival_schedule::for_window(const load_spec& spec, std::size_t share,
                                              std::size_t shares) {
  if (!spec.arrivals) throw std::invalid_argument("an open loop needs an arrival schedule");
  if (spec.stages) return arrival_schedule(*spec.arrivals, *spec.stages, spec.seed, share, shares);
  return arrival_schedule(*spec.arrivals, spec.rate, spec.duration, spec.seed, share, shares, spec.calls);
}

std::optional<std::chrono::nanoseconds> arrival_schedule::next() {
  if (kind_ == arrival_kind::uniform) {
    // Share k's j-th call is the schedule's call k + j n: computed, not walked to.
    issued_ = issued_ == 0 ? share_ : issued_ + shares_ - 1;
    return next_of_all();
  }
  // The others draw every call of the schedule (the random sequence is the schedule's, one for
  // all shares) and keep this share's.
  while (issued_ % shares_ != share_)
    if (!next_of_all()) return std::nullopt;
  return next_of_all();
}

std::chrono::nanoseconds arrival_schedule::end() const {
  if (calls_ == 0) return duration_;
  if (kind_ == arrival_kind::bursty)
    return std::chrono::seconds(per_second_.size());  // its calls' whole seconds
  return last_at_ + std::chrono::nanoseconds(static_cast<std::int64_t>(1e9 / rate_));
}

std::optional<std::chrono::nanoseconds> arrival_schedule::next_of_all() {
  if (calls_ > 0 && issued_ >= calls_) return std::nullopt;
  const auto at = next_in_time();
  if (at) last_at_ = *at;
  return at;
}

std::optional<std::chrono::nanoseconds> arrival_schedule::next_in_time() {
  using std::chrono::nanoseconds;
  switch (kind_) {
    case arrival_kind::uniform: {
      if (profile_) {  // call i is due when the ramp has i calls due
        const auto t = profile_->time_of(static_cast<double>(issued_));
        if (!t) return std::nullopt;
        ++issued_;
        return nanoseconds(static_cast<std::int64_t>(std::floor(*t * 1e9)));
      }
      // From the call's index, not by summing gaps, so rounding never drifts the rate.
      const auto at = nanoseconds(static_cast<std::int64_t>(
          std::floor(static_cast<double>(issued_) * 1e9 / rate_)));
      if (at >= duration_) return std::nullopt;
      ++issued_;
      return at;
    }
    case arrival_kind::poisson: {
      if (profile_) {  // a unit-rate process in calls, mapped through the ramp's time
        const auto t = profile_->time_of(poisson_at_s_);
        if (!t) return std::nullopt;
        poisson_at_s_ += std::exponential_distribution<double>(1.0)(random_);
        ++issued_;
        return nanoseconds(static_cast<std::int64_t>(std::floor(*t * 1e9)));
      }
      const auto at = nanoseconds(static_cast<std::int64_t>(poisson_at_s_ * 1e9));
      if (at >= duration_) return std::nullopt;
      poisson_at_s_ += std::exponential_distribution<double>(rate_)(random_);
      ++issued_;
      return at;
    }
    case arrival_kind::bursty: {
      while (left_in_second_ == 0) {
        if (second_ >= per_second_.size()) return std::nullopt;
        left_in_second_ = per_second_[second_++];
      }
      --left_in_second_;
      ++issued_;
      return std::chrono::seconds(second_ - 1);
    }
  }
  return std::nullopt;
}

}  // namespace wirebench
