#include "report_data.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>

#include "echo_article.hpp"
#include "wirebench/load/slo.hpp"

namespace wirebench::app {
namespace {

using nlohmann::json;

double us(std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; }

// The load a point shared with the others of its group: everything but the protocol and what
// each protocol chooses itself (connections, depth), so that a group's protocols are drawn
// together.
std::string group_of(const point_parameters& p) {
  std::string g = p.load == "closed" ? "closed loop, " + (p.stages.empty() ? std::to_string(p.workers) + " workers"
                                                                          : "workers in stages " + p.stages)
                                     : !p.stages.empty() ? p.load + " in stages " + p.stages + ", " +
                                                              std::to_string(p.workers) + " in flight"
                                     : p.load + " at " + std::to_string(std::llround(p.rate)) +
                                           " calls/s, " + std::to_string(p.workers) + " in flight";
  if (p.transport != "tcp") g += ", " + p.transport;
  if (p.payload_bytes != 5) g += ", " + std::to_string(p.payload_bytes) + " B names";
  if (p.requests.size() == 1) g += ", " + describe(p.requests.front());
  if (p.requests.size() > 1) g += ", a mix of " + std::to_string(p.requests.size()) + " requests";
  return g;
}

latency_histogram merged_latency(const point_result& p, bool actual) {
  latency_histogram all;
  for (const auto& r : p.repeats) all.merge(actual ? r.load.actual_latency : r.load.latency);
  return all;
}

// A point as its results file has it (parameters, summary, repeats), without what the page does
// not draw (the repeats' whole histograms, the timelines' buckets: the spectrum stands for them),
// with what it needs to place and name it.
json point_of(const point_result& p, json from_file, std::size_t id, std::size_t file,
              bool many_files) {
  for (json& r : from_file["repeats"]) {
    r.erase("latency_histogram");
    r.erase("actual_latency_histogram");
    if (r.contains("timeline")) r["timeline"].erase("latency_buckets");
  }
  std::string label = p.parameters.protocol;
  if (!p.parameters.server_engine.empty()) label += " (" + p.parameters.server_engine + ")";
  if (many_files) label += " [" + std::to_string(file + 1) + "]";
  json j = {{"id", id},
            {"file", file},
            {"label", std::move(label)},
            {"group", group_of(p.parameters)},
            {"describe", describe_point(p.parameters)},
            {"parameters", std::move(from_file["parameters"])},
            {"summary", std::move(from_file["summary"])},
            {"spectrum", percentile_spectrum(merged_latency(p, false))},
            {"repeats", std::move(from_file["repeats"])}};
  if (p.parameters.load != "closed")
    j["actual_spectrum"] = percentile_spectrum(merged_latency(p, true));
  return j;
}

json knee_of(const knee_result& k, std::size_t first_point) {
  json steps = json::array();
  for (const knee_step& s : k.steps)
    steps.push_back({{"rate", s.rate}, {"met", s.violation.empty()}, {"violation", s.violation},
                     {"point", first_point + s.point}});
  json limits = json::array();
  try {
    for (const auto& l : slo_target::parse(k.slo).latency)
      limits.push_back({{"percentile", l.percentile},
                        {"at_most_us", std::chrono::duration<double, std::micro>(l.at_most).count()}});
  } catch (const std::invalid_argument&) {
    // A target this build cannot read (a file from another version): drawn without its lines.
  }
  return {{"protocol", k.protocol},         {"load", k.load},
          {"workers", k.workers},           {"slo", k.slo},
          {"limits", std::move(limits)},    {"max_rate_met", k.max_rate_met},
          {"lowest_missed", k.lowest_missed}, {"missed_because", k.missed_because},
          {"stopped_because", k.stopped_because}, {"steps", std::move(steps)}};
}

// The same load on the same protocol, in two runs.
bool same_load(const point_parameters& a, const point_parameters& b) {
  return a.protocol == b.protocol && a.server_engine == b.server_engine && a.load == b.load &&
         a.workers == b.workers && a.depth == b.depth && a.rate == b.rate && a.stages == b.stages &&
         a.payload_bytes == b.payload_bytes && a.transport == b.transport && a.requests == b.requests &&
         a.server_threads == b.server_threads && a.client_threads == b.client_threads;
}

// One figure of a point in each repeat: its median and spread (min, max).
json spread(const point_result& p, const std::function<std::optional<double>(const repeat_result&)>& get) {
  std::vector<double> v;
  for (const auto& r : p.repeats)
    if (auto x = get(r)) v.push_back(*x);
  if (v.empty()) return nullptr;
  return {{"median", median(v)},
          {"min", *std::min_element(v.begin(), v.end())},
          {"max", *std::max_element(v.begin(), v.end())}};
}

// Before against after, figure by figure: each repeat's own value, so that a change is judged
// against the repeats' spread. A change counts ("better", "worse") only when neither run's
// median falls within the other's spread; else it is "same". A point run once is not judged.
json compare_points(const point_result& before, const point_result& after) {
  using getter = std::function<std::optional<double>(const repeat_result&)>;
  struct figure {
    const char* name;
    bool higher_is_better;
    getter get;
  };
  auto quantile = [](double q) {
    return getter([q](const repeat_result& r) -> std::optional<double> {
      if (r.load.latency.count() == 0) return std::nullopt;
      return us(r.load.latency.percentile(q));
    });
  };
  const figure figures[] = {
      {"calls/s", true, [](const repeat_result& r) { return r.load.requests_per_second(); }},
      {"p50 us", false, quantile(50)},
      {"p99 us", false, quantile(99)},
      {"p99.9 us", false, quantile(99.9)},
      {"client cpu us/call", false,
       [](const repeat_result& r) { return cpu_us_per_call(r, r.client_cpu.total()); }},
      {"server cpu us/call", false, [](const repeat_result& r) -> std::optional<double> {
         if (!r.server_cpu) return std::nullopt;
         return cpu_us_per_call(r, r.server_cpu->total());
       }}};
  json rows = json::array();
  for (const figure& f : figures) {
    json b = spread(before, f.get), a = spread(after, f.get);
    if (b.is_null() || a.is_null()) continue;
    const double bm = b["median"], am = a["median"];
    const bool apart = (am < b["min"].get<double>() || am > b["max"].get<double>()) &&
                       (bm < a["min"].get<double>() || bm > a["max"].get<double>());
    // One repeat has no spread to judge a change against: nothing is coloured then.
    const bool judged = before.repeats.size() > 1 && after.repeats.size() > 1;
    std::string verdict = judged ? "same" : "one repeat: not judged";
    if (judged && apart) verdict = (am > bm) == f.higher_is_better ? "better" : "worse";
    rows.push_back({{"figure", f.name},
                    {"before", std::move(b)},
                    {"after", std::move(a)},
                    {"ratio", bm != 0 ? json(am / bm) : json(nullptr)},
                    {"verdict", verdict}});
  }
  return rows;
}

}  // namespace

json percentile_spectrum(const latency_histogram& h) {
  json out = json::array();
  if (h.count() == 0) return out;
  // Percentile 100 (1 - 2^-(k/5)) for k = 0, 1, ...: five points per halving of what is left
  // above, while the histogram still has a value beyond (1/(1-q) at most its count).
  const auto n = static_cast<double>(h.count());
  for (int k = 0;; ++k) {
    const double above = std::pow(0.5, k / 5.0);
    if (1.0 / above > n) break;
    const double percentile = 100.0 * (1.0 - above);
    out.push_back({percentile, us(h.percentile(percentile))});
  }
  out.push_back({100.0, us(h.max())});
  return out;
}

json benchmark_of(const benchmark_input& in) {
  const json& doc = in.doc;
  // A case's median over repetitions when there are some, else its own row (report.py's rule).
  std::set<std::string> aggregated;
  for (const json& b : doc["benchmarks"])
    if (b.value("run_type", "") == "aggregate") aggregated.insert(b.value("run_name", ""));
  json rows = json::array();
  for (const json& b : doc["benchmarks"]) {
    if (!b.is_object()) continue;
    const std::string run = b.value("run_name", b.value("name", ""));
    const bool aggregate = b.value("run_type", "") == "aggregate";
    if (aggregate ? b.value("aggregate_name", "") != "median" : aggregated.count(run) > 0) continue;
    json row = b;
    row["case"] = run.ends_with("/real_time") ? run.substr(0, run.size() - 10) : run;
    rows.push_back(std::move(row));
  }
  json context = json::object();
  if (doc.contains("context") && doc["context"].is_object())
    for (const char* key : {"date", "host_name", "num_cpus", "mhz_per_cpu", "library_build_type",
                            "server_threads", "client_threads"})
      if (doc["context"].contains(key)) context[key] = doc["context"][key];
  return {{"file", in.file}, {"context", std::move(context)}, {"rows", std::move(rows)}};
}

json report_data(const std::vector<results_input>& inputs,
                 const std::vector<benchmark_input>& benchmarks) {
  json files = json::array(), points = json::array(), knees = json::array(), echo = json::array();
  const bool many = inputs.size() > 1;
  for (std::size_t f = 0; f < inputs.size(); ++f) {
    const run_record& run = inputs[f].run;
    // The file as `run -o` writes it, so that the page shows the figures under the names a
    // results file gives them.
    json doc = json::parse(results_json(run));
    files.push_back({{"file", inputs[f].file},
                     {"command", std::move(doc["command"])},
                     {"started_at", std::move(doc["started_at"])},
                     {"incomplete", run.incomplete},
                     {"machine", std::move(doc["machine"])},
                     {"libraries", std::move(doc["libraries"])},
                     {"merged_from", run.merged_from.size()}});
    const std::size_t first = points.size();
    for (std::size_t i = 0; i < run.points.size(); ++i)
      points.push_back(point_of(run.points[i], std::move(doc["points"][i]), points.size(), f, many));
    for (const auto& k : run.knees) knees.push_back(knee_of(k, first));
    for (const echo_cell& c : run.echo)
      echo.push_back({{"file", f}, {"server", c.server}, {"client", c.client}, {"address", c.address},
                      {"method", c.method}, {"workers", c.workers},
                      {"mean_us", c.mean_us.empty() ? json(nullptr) : json(median(c.mean_us))},
                      {"calls_per_second", c.calls_per_second.empty() ? json(nullptr) : json(median(c.calls_per_second))},
                      {"repeats", c.mean_us.size()}, {"calls", c.calls}, {"failed", c.failed},
                      {"point", c.point ? json(first + *c.point) : json(nullptr)}, {"skipped", c.skipped}});
  }
  // Article 003's published figures, beside an echo table: a fact of its machine, not ours.
  json article = json::array();
  if (!echo.empty())
    for (const auto& row : echo_article_rows)
      article.push_back({{"server", row.server}, {"client", row.client}, {"address", row.address},
                         {"kind", row.kind}, {"mean_us", row.mean_us}});
  json comparison = json::array();
  if (inputs.size() == 2) {
    for (const auto& before : inputs[0].run.points)
      for (const auto& after : inputs[1].run.points)
        if (same_load(before.parameters, after.parameters))
          comparison.push_back({{"point", describe_point(after.parameters)},
                                {"figures", compare_points(before, after)}});
  }
  json cases = json::array();
  for (const auto& b : benchmarks) cases.push_back(benchmark_of(b));
  return {{"format", "wirebench-report-1"},
          {"files", std::move(files)},
          {"benchmarks", std::move(cases)},
          {"points", std::move(points)},
          {"knees", std::move(knees)},
          {"echo", std::move(echo)},
          {"echo_article", {{"machine", echo_article_machine}, {"rows", std::move(article)}}},
          {"comparison", std::move(comparison)}};
}

}  // namespace wirebench::app
