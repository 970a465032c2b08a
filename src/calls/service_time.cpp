#include "wirebench/calls/service_time.hpp"

#include <charconv>
#include <stdexcept>

#include "wirebench/core/duration_text.hpp"

namespace wirebench {
namespace {

std::chrono::nanoseconds parse_duration_or_throw(std::string_view text, std::string_view whole) {
  if (auto d = parse_duration(text)) return *d;
  throw std::invalid_argument("service time '" + std::string(whole) +
                              "': durations look like 250us, 5ms or 1s");
}

}  // namespace

std::chrono::nanoseconds service_time_model::sample(std::mt19937_64& rng) const {
  switch (type) {
    case kind::none: return std::chrono::nanoseconds(0);
    case kind::fixed:
    case kind::busy: return mean;
    case kind::exponential: {
      std::exponential_distribution<double> d(1.0 / static_cast<double>(mean.count()));
      return std::chrono::nanoseconds(static_cast<std::int64_t>(d(rng)));
    }
    case kind::skewed: return rng() % one_in == 0 ? mean : std::chrono::nanoseconds(0);
  }
  return std::chrono::nanoseconds(0);
}

std::string service_time_model::to_string() const {
  switch (type) {
    case kind::none: return "none";
    case kind::fixed: return "fixed:" + format_duration(mean);
    case kind::busy: return "busy:" + format_duration(mean);
    case kind::exponential: return "exp:" + format_duration(mean);
    case kind::skewed: return "skewed:" + std::to_string(one_in) + ":" + format_duration(mean);
  }
  return "none";
}

service_time_model service_time_model::parse(std::string_view text) {
  service_time_model m;
  if (text == "none" || text.empty()) return m;
  const auto colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  const std::string_view rest = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  if (name == "fixed" || name == "exp" || name == "busy") {
    m.type = name == "fixed" ? kind::fixed : name == "busy" ? kind::busy : kind::exponential;
    m.mean = parse_duration_or_throw(rest, text);
    if (m.type == kind::exponential && m.mean.count() == 0)
      throw std::invalid_argument("service time '" + std::string(text) + "': the mean must be > 0");
    return m;
  }
  if (name == "skewed") {
    const auto second = rest.find(':');
    std::uint32_t k = 0;
    auto [end, ec] = std::from_chars(rest.data(), rest.data() + std::min(second, rest.size()), k);
    if (second == std::string_view::npos || ec != std::errc{} || k == 0 ||
        end != rest.data() + second)
      throw std::invalid_argument("service time '" + std::string(text) +
                                  "': expected skewed:K:DURATION (1 in K requests is slow)");
    m.type = kind::skewed;
    m.one_in = k;
    m.mean = parse_duration_or_throw(rest.substr(second + 1), text);
    return m;
  }
  throw std::invalid_argument("service time '" + std::string(text) +
                              "': expected none, fixed:T, exp:T, skewed:K:T or busy:T");
}

}  // namespace wirebench
