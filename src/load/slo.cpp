#include "wirebench/load/slo.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "wirebench/core/duration_text.hpp"
#include "wirebench/core/setting_error.hpp"

namespace wirebench {
namespace {

[[noreturn]] void refuse(std::string_view whole, std::string_view part, std::string_view why) {
  throw setting_error("slo", "'" + std::string(whole) + "': '" + std::string(part) + "' " +
                                std::string(why));
}

std::optional<double> number(std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string percentile_name(double p) {
  if (p == 100) return "max";
  char text[16];
  std::snprintf(text, sizeof text, "p%g", p);
  return text;
}

}  // namespace

slo_target slo_target::parse(std::string_view text, use purpose) {
  slo_target t;
  t.text = std::string(text);
  std::string_view rest = text;
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view part = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (const auto floor = part.find(">="); floor != std::string_view::npos) {
      if (part.substr(0, floor) != "rps")
        refuse(text, part, "sets a floor on what has none: only rps>=N (calls/s) is a lower bound");
      if (purpose == use::search)
        refuse(text, part, "is what the search finds: give latency and errors only");
      const auto v = number(part.substr(floor + 2));
      if (!v || *v <= 0) refuse(text, part, "needs calls per second above 0, like rps>=1000");
      t.min_rps = *v;
      continue;
    }
    const auto op = part.find("<=");
    if (op == std::string_view::npos)
      refuse(text, part,
             purpose == use::check ? "is not NAME<=LIMIT or rps>=N (p99<=1ms, errors<=0.1%, rps>=1000)"
                                   : "is not NAME<=LIMIT (p99<=1ms, errors<=0.1%)");
    const std::string_view name = part.substr(0, op);
    const std::string_view limit = part.substr(op + 2);
    if (name == "errors") {
      const auto percent = limit.ends_with('%') ? number(limit.substr(0, limit.size() - 1))
                                                : std::nullopt;
      if (!percent || *percent < 0 || *percent > 100)
        refuse(text, part, "needs a percentage in [0, 100], like errors<=0.1%");
      t.max_error_fraction = *percent / 100;
      continue;
    }
    std::optional<double> p;
    if (name == "max") p = 100;
    else if (name.starts_with('p')) p = number(name.substr(1));
    if (!p || *p <= 0 || *p > 100) refuse(text, part, "names no quantile (p50, p99, p99.9, max)");
    const auto d = parse_duration(limit);
    if (!d || d->count() == 0) refuse(text, part, "needs a duration above 0, like 1ms or 250us");
    t.latency.push_back({*p, *d});
  }
  if (purpose == use::search && t.latency.empty())
    refuse(text, text, "sets no latency target: the search needs one (p99<=1ms)");
  if (t.latency.empty() && !t.max_error_fraction && !t.min_rps)
    refuse(text, text, "sets no target (p99<=1ms, errors<=0.1%, rps>=1000)");
  // Percentiles are of successful calls: a server that fails calls fast must not pass for one
  // that answers them.
  if (!t.max_error_fraction) t.max_error_fraction = default_max_error_fraction;
  return t;
}

std::optional<std::string> slo_target::violation(const std::vector<repeat_result>& repeats) const {
  if (repeats.empty()) return "no repeat completed";
  for (const auto& r : repeats)
    if (r.load.outcomes.count(outcome::ok) == 0) return "no call succeeded";
  for (const latency_limit& l : latency) {
    std::vector<double> each;
    for (const auto& r : repeats)
      each.push_back(static_cast<double>(r.load.latency.percentile(l.percentile)));
    const double ns = median(std::move(each));
    if (ns > static_cast<double>(l.at_most.count()))
      return percentile_name(l.percentile) + " " + readable_duration(ns) + " > " +
             format_duration(l.at_most);
  }
  if (min_rps) {
    std::vector<double> each;
    for (const auto& r : repeats) each.push_back(r.load.requests_per_second());
    if (const double rps = median(std::move(each)); rps < *min_rps) {
      char why[96];
      std::snprintf(why, sizeof why, "rps %.6g < %.6g", rps, *min_rps);
      return std::string(why);
    }
  }
  if (max_error_fraction) {
    std::uint64_t failed = 0, total = 0;
    for (const auto& r : repeats) {
      failed += r.load.outcomes.failed();
      total += r.load.outcomes.total();
    }
    const double share = total ? static_cast<double>(failed) / static_cast<double>(total) : 1;
    if (share > *max_error_fraction) {
      char why[96];
      std::snprintf(why, sizeof why, "errors %.3g%% > %.3g%%", share * 100,
                    *max_error_fraction * 100);
      return std::string(why);
    }
  }
  return std::nullopt;
}

}  // namespace wirebench
