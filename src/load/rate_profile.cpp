#include "wirebench/load/rate_profile.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "wirebench/core/duration_text.hpp"

namespace wirebench {
namespace {

double seconds_of(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

rate_profile::rate_profile(std::vector<rate_stage> stages) : stages_(std::move(stages)) {
  // A year in all: beyond any run, and far from overflowing the nanoseconds they are added in.
  constexpr auto longest = std::chrono::hours(24 * 365);
  for (const rate_stage& s : stages_) {
    if (!(s.target >= 0) || !std::isfinite(s.target))
      throw std::invalid_argument("a stage's rate is a number of calls per second, at least 0");
    if (s.duration.count() < 0) throw std::invalid_argument("a stage's duration is at least 0");
    if (s.duration > longest - duration_) throw std::invalid_argument("the stages last more than a year");
    duration_ += s.duration;
  }
  seconds_ = seconds_of(duration_);
  if (duration_.count() <= 0) throw std::invalid_argument("the stages last no time");
}

std::optional<rate_profile> rate_profile::parse(std::string_view text, std::string& problem) {
  std::vector<rate_stage> stages;
  if (!text.empty() && text.back() == ',') {
    problem = "'" + std::string(text) + "': a stage after the last comma is missing";
    return std::nullopt;
  }
  std::string item;
  std::istringstream in{std::string(text)};
  while (std::getline(in, item, ',')) {
    const auto at = item.find('@');
    const auto duration = at == std::string::npos ? std::nullopt : parse_duration(item.substr(at + 1));
    double rate = -1;
    std::size_t used = 0;
    try {
      rate = std::stod(item.substr(0, at), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (at == std::string::npos || used != at || !(rate >= 0) || !std::isfinite(rate) || !duration) {
      problem = "'" + item + "': a stage is RATE@DURATION, such as 1000@30s";
      return std::nullopt;
    }
    stages.push_back({rate, *duration});
  }
  if (stages.empty()) {
    problem = "no stage: give RATE@DURATION,...";
    return std::nullopt;
  }
  try {
    return rate_profile(std::move(stages));
  } catch (const std::invalid_argument& e) {
    problem = e.what();
    return std::nullopt;
  }
}

std::string rate_profile::text() const {
  std::string out;
  for (const rate_stage& s : stages_) {
    char rate[32];  // the shortest text that reads back as the same number
    const auto end = std::to_chars(rate, rate + sizeof rate, s.target).ptr;
    out += (out.empty() ? "" : ",") + std::string(rate, end) + "@" + format_duration(s.duration);
  }
  return out;
}

double rate_profile::peak() const {
  double top = 0;
  for (const rate_stage& s : stages_) top = std::max(top, s.target);
  return top;
}

double rate_profile::rate_at(double t) const {
  double from = 0, start = 0;
  for (const rate_stage& s : stages_) {
    const double length = seconds_of(s.duration);
    if (t < start + length) return from + (s.target - from) * (t - start) / length;
    start += length;
    from = s.target;
  }
  return 0;
}

double rate_profile::calls_by(double t) const {
  double from = 0, start = 0, calls = 0;
  for (const rate_stage& s : stages_) {
    const double length = seconds_of(s.duration);
    const double in = std::clamp(t - start, 0.0, length);
    if (length > 0) calls += from * in + (s.target - from) * in * in / (2 * length);
    if (t < start + length) return calls;
    start += length;
    from = s.target;
  }
  return calls;
}

std::optional<double> rate_profile::time_of(double n) const {
  double from = 0, start = 0, before = 0;
  for (const rate_stage& s : stages_) {
    const double length = seconds_of(s.duration);
    const double in_stage = length > 0 ? (from + s.target) * length / 2 : 0;
    if (n < before + in_stage) {
      // from * t + a t^2 / 2 = m, a = (target - from) / length: the root written so that it does
      // not cancel when a is near 0 (a held rate).
      const double m = n - before, a = (s.target - from) / length;
      const double root = std::sqrt(std::max(0.0, from * from + 2 * a * m));
      const double t = from + root > 0 ? 2 * m / (from + root) : 0;
      return start + std::min(t, length);
    }
    before += in_stage;
    start += length;
    from = s.target;
  }
  return std::nullopt;
}

}  // namespace wirebench
