#pragma once
// How long the server takes to answer, as a knob: so the harness can show what ordered pipelining
// costs when some requests are slow (head-of-line blocking).
//   none                no added time
//   fixed:100us         every request takes 100 µs
//   exp:100us           exponentially distributed, mean 100 µs
//   skewed:100:5ms      1 request in 100 takes 5 ms, the others none
//   busy:1ms            every request holds its thread for 1 ms (it sleeps, as a blocking handler
//                       does): K worker threads then serve at most K / 1 ms calls/s, a server of
//                       known capacity. Without workers the event loop sleeps, so the requests
//                       of one read are all served before the first reply goes out. The others
//                       wait on a timer and hold no thread.
// Durations take ns, us, ms or s.
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// A service-time model (syntax above).
struct WIREBENCH_API service_time_model {
  /// The kinds of model (none, fixed, exp, skewed, busy in the syntax above).
  enum class kind : std::uint8_t { none, fixed, exponential, skewed, busy };
  /// Which kind of model this is.
  kind type = kind::none;
  std::chrono::nanoseconds mean{0};  // fixed, busy: the time; exponential: the mean; skewed: the slow time
  std::uint32_t one_in = 0;          // skewed: 1 request in `one_in` is slow

  /// One request's delay (0 for none).
  std::chrono::nanoseconds sample(std::mt19937_64& rng) const;
  /// Whether the delay holds the thread that computes the reply (busy) rather than a timer.
  bool holds_thread() const { return type == kind::busy; }
  /// The model in parse()'s syntax.
  std::string to_string() const;  // the same syntax parse() reads
  /// Reads the syntax above; throws std::invalid_argument on anything else.
  static service_time_model parse(std::string_view text);  // throws std::invalid_argument
  /// Field-by-field equality.
  friend bool operator==(const service_time_model&, const service_time_model&) = default;
};

}  // namespace wirebench
