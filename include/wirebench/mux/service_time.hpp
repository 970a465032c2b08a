#pragma once
// How long the server takes to answer, as a knob: so the harness can show what ordered pipelining
// costs when some requests are slow (head-of-line blocking).
//   none                no added time
//   fixed:100us         every request takes 100 µs
//   exp:100us           exponentially distributed, mean 100 µs
//   skewed:100:5ms      1 request in 100 takes 5 ms, the others none
// Durations take ns, us, ms or s.
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

namespace wirebench {

struct service_time_model {
  enum class kind : std::uint8_t { none, fixed, exponential, skewed };
  kind type = kind::none;
  std::chrono::nanoseconds mean{0};  // fixed: the time; exponential: the mean; skewed: the slow time
  std::uint32_t one_in = 0;          // skewed: 1 request in `one_in` is slow

  std::chrono::nanoseconds sample(std::mt19937_64& rng) const;
  std::string to_string() const;  // the same syntax parse() reads
  static service_time_model parse(std::string_view text);  // throws std::invalid_argument
  friend bool operator==(const service_time_model&, const service_time_model&) = default;
};

}  // namespace wirebench
