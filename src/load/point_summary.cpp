#include "wirebench/load/point_summary.hpp"

#include <algorithm>
#include <cstdio>

namespace wirebench {

std::string describe_point(const point_parameters& p) {
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string here.
  std::string text = p.protocol;
  text.append(" ").append(p.load);
  if (!p.stages.empty())
    text.append(" stages ").append(p.stages);
  else if (p.load != "closed")
    text.append("@").append(std::to_string(static_cast<long long>(p.rate))).append("/s");
  text.append(" workers=").append(std::to_string(p.workers));
  if (p.generators > 1)
    text.append(" (").append(std::to_string(p.generators)).append(" generators)");
  return text;
}

double cpu_us_per_call(const repeat_result& r, double cpu_seconds) {
  const auto calls = r.load.outcomes.total();
  return calls ? cpu_seconds * 1e6 / static_cast<double>(calls) : 0;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t mid = v.size() / 2;
  return v.size() % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

namespace {

template <typename Get>
double median_of(const std::vector<repeat_result>& repeats, Get get) {
  std::vector<double> v;
  v.reserve(repeats.size());
  for (const auto& r : repeats) v.push_back(get(r));
  return median(std::move(v));
}

latency_quantiles median_quantiles(const std::vector<latency_quantiles>& each) {
  auto field = [&](double latency_quantiles::*member) {
    std::vector<double> v;
    for (const auto& q : each) v.push_back(q.*member);
    return median(std::move(v));
  };
  return {field(&latency_quantiles::min),  field(&latency_quantiles::p50),
          field(&latency_quantiles::p90),  field(&latency_quantiles::p99),
          field(&latency_quantiles::p999), field(&latency_quantiles::max),
          field(&latency_quantiles::mean)};
}

// Each request of a mix, as summarize() does the point: medians of its rate and latencies, its
// outcomes summed. Repeats that differ in their number of requests (not one run's) are refused
// before they get here (results_merge.cpp); a repeat without them contributes nothing.
std::vector<request_summary> summarize_requests(const std::vector<repeat_result>& repeats) {
  std::size_t n = 0;
  for (const auto& r : repeats) n = std::max(n, r.load.per_request.size());
  std::vector<request_summary> out(n);
  std::uint64_t all_calls = 0;
  for (const auto& r : repeats)
    for (const request_result& q : r.load.per_request) all_calls += q.outcomes.total();
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<double> rps;
    std::vector<latency_quantiles> latency;
    for (const auto& r : repeats) {
      if (i >= r.load.per_request.size()) continue;
      const request_result& q = r.load.per_request[i];
      const double ok = static_cast<double>(q.outcomes.count(outcome::ok));
      const double all_ok = static_cast<double>(r.load.outcomes.count(outcome::ok));
      // Its part of the repeat's rate (of a merged repeat's summed rate too).
      rps.push_back(all_ok > 0 ? r.load.requests_per_second() * ok / all_ok : 0);
      latency.push_back(latency_quantiles::of(q.latency));
      out[i].outcomes.merge(q.outcomes);
      out[i].late += q.late;
    }
    out[i].rps_median = median(std::move(rps));
    out[i].latency = median_quantiles(latency);
    out[i].share = all_calls ? static_cast<double>(out[i].outcomes.total()) / static_cast<double>(all_calls) : 0;
  }
  return out;
}

}  // namespace

latency_quantiles latency_quantiles::of(const latency_histogram& h) {
  auto us = [](std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; };
  return {us(h.min()),          us(h.percentile(50)), us(h.percentile(90)), us(h.percentile(99)),
          us(h.percentile(99.9)), us(h.max()),        h.mean() / 1000.0};
}

point_summary summarize(const std::vector<repeat_result>& repeats, const cpu_budget& budget) {
  point_summary s;
  s.repeats = repeats.size();
  if (repeats.empty()) return s;
  std::vector<double> rps;
  std::vector<latency_quantiles> latency, actual;
  for (const auto& r : repeats) {
    rps.push_back(r.load.requests_per_second());
    latency.push_back(latency_quantiles::of(r.load.latency));
    actual.push_back(latency_quantiles::of(r.load.actual_latency));
    s.outcomes.merge(r.load.outcomes);
    s.late += r.load.late;
    s.planned += r.load.planned;
    s.issued += r.load.issued;
    s.client += r.client;
  }
  s.requests = summarize_requests(repeats);
  s.rps_median = median(rps);
  s.rps_min = *std::min_element(rps.begin(), rps.end());
  s.rps_max = *std::max_element(rps.begin(), rps.end());
  s.latency = median_quantiles(latency);
  s.actual_latency = median_quantiles(actual);

  auto per_second = [](const repeat_result& r, double cpu) {
    return r.load.window_seconds > 0 ? cpu / r.load.window_seconds : 0;
  };
  auto per_call_us = [](const repeat_result& r, double cpu) { return cpu_us_per_call(r, cpu); };
  s.client_cores_used =
      median_of(repeats, [&](const auto& r) { return per_second(r, r.client_cpu.total()); });
  s.client_cpu_us_per_call =
      median_of(repeats, [&](const auto& r) { return per_call_us(r, r.client_cpu.total()); });
  const bool have_server = std::all_of(repeats.begin(), repeats.end(),
                                       [](const auto& r) { return r.server_cpu.has_value(); });
  if (have_server) {
    s.server_cores_used =
        median_of(repeats, [&](const auto& r) { return per_second(r, r.server_cpu->total()); });
    s.server_cpu_us_per_call =
        median_of(repeats, [&](const auto& r) { return per_call_us(r, r.server_cpu->total()); });
  }

  // The generator is the likely limit when it used (nearly) all the CPU it can use, or when the
  // machine is saturated and the generator took clearly the larger share of it.
  char why[200];
  if (s.client_cores_used >= 0.85 * budget.client_cores) {
    std::snprintf(why, sizeof why, "client used %.2f of its %.2g cores: the generator may be the limit",
                  s.client_cores_used, budget.client_cores);
    s.client_bound = true;
    s.warning = why;
  } else if (s.server_cores_used &&
             s.client_cores_used + *s.server_cores_used >= 0.9 * budget.machine_cores &&
             s.client_cores_used > 1.25 * *s.server_cores_used) {
    std::snprintf(why, sizeof why,
                  "machine saturated and the client used more CPU (%.2f cores) than the server "
                  "(%.2f): the generator may be the limit",
                  s.client_cores_used, *s.server_cores_used);
    s.client_bound = true;
    s.warning = why;
  }
  return s;
}

}  // namespace wirebench
