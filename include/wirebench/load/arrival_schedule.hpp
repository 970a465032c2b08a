#pragma once
// When each call of an open-loop run is meant to start, as offsets from the run's start. Sans-IO:
// a pure function of (kind, rate, duration, seed), so a schedule can be tested and replayed.
//   uniform  calls evenly spaced, 1/rate apart (a constant-rate generator, as wrk2)
//   poisson  exponential gaps with mean 1/rate (independent arrivals)
//   bursty   rate x duration calls, each at a random *whole* second of the run, all of that
//            second's calls at its start: the schedule of the protocol comparison this project
//            reproduces, kept so its spread can be told apart from the protocols'.
// A schedule may also follow a rate that changes (rate_profile.hpp, k6's ramping stages): a
// uniform one's call i is then due when the profile has i calls due, a Poisson one's arrivals are
// a unit-rate process with time rescaled by the profile; a bursty one has no ramp.
// A schedule can be split over several generator threads: share k of n yields the run's calls
// k, k + n, k + 2n, ... of the one schedule, so that the shares together are exactly the
// schedule a single thread would keep, whatever the number of threads.
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "wirebench/load/rate_profile.hpp"

namespace wirebench {

enum class arrival_kind : std::uint8_t { uniform, poisson, bursty };

struct load_spec;  // load_spec.hpp, which includes this

std::string_view arrival_kind_name(arrival_kind k);
std::optional<arrival_kind> parse_arrival_kind(std::string_view name);

class arrival_schedule {
 public:
  // rate > 0 calls/s. `calls` > 0: exactly that many calls in the whole schedule, however long
  // they take at the rate (`duration` is then not read; bursty spreads them over ceil(calls /
  // rate) whole seconds). Throws std::invalid_argument on a rate or duration that is not
  // positive, or on a share that is not one of `shares` (share < shares).
  arrival_schedule(arrival_kind kind, double rate_per_second, std::chrono::nanoseconds duration,
                   std::uint64_t seed = 1, std::size_t share = 0, std::size_t shares = 1,
                   std::uint64_t calls = 0);
  // A ramped schedule over the profile's stages (uniform or poisson; std::invalid_argument for
  // bursty, stages that hold no call, or a share that is not one of `shares`).
  arrival_schedule(arrival_kind kind, rate_profile profile, std::uint64_t seed = 1,
                   std::size_t share = 0, std::size_t shares = 1);

  // This share's next call's intended start (nondecreasing), or nullopt once the run's duration is
  // over.
  std::optional<std::chrono::nanoseconds> next();
  // Once next() has returned nullopt: the whole schedule's end, an offset from its start one
  // mean gap (1/rate) after its last call, or the duration (the window the calls filled).
  std::chrono::nanoseconds end() const;
  // The window's schedule an open loop of `spec` keeps (its rate or its stages, its count), share
  // `share` of `shares`; throws as the constructors do.
  static arrival_schedule for_window(const load_spec& spec, std::size_t share = 0,
                                     std::size_t shares = 1);
  // The index in the whole schedule of the call next() returned last (share k: k, k + n, ...).
  std::uint64_t last_index() const { return issued_ - 1; }

 private:
  std::optional<std::chrono::nanoseconds> next_of_all();  // the whole schedule's next call
  std::optional<std::chrono::nanoseconds> next_in_time();  // ... by its kind, count aside

  arrival_kind kind_;
  double rate_;
  std::chrono::nanoseconds duration_;
  std::uint64_t calls_ = 0;  // 0: as many as fit in duration_
  std::chrono::nanoseconds last_at_{0};  // the whole schedule's last call returned so far
  std::mt19937_64 random_;
  std::uint64_t issued_ = 0;  // calls of the whole schedule returned or skipped so far
  std::size_t share_ = 0;
  std::size_t shares_ = 1;
  double poisson_at_s_ = 0;
  std::vector<std::uint32_t> per_second_;  // bursty: calls at the start of each whole second
  std::size_t second_ = 0;
  std::uint32_t left_in_second_ = 0;
  std::optional<rate_profile> profile_;  // a ramp's; poisson_at_s_ then counts calls, not seconds
};

}  // namespace wirebench
