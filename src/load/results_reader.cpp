#include "wirebench/load/results_reader.hpp"

#include <stdexcept>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "wirebench/protocols/registry.hpp"
#include "results_fields.hpp"

namespace wirebench {
namespace {

using nlohmann::json;

// The most latency histograms one results file may hold (about 900 MB of them): a sweep of 30
// protocols x 10 points x 5 repeats holds 3000.
constexpr std::size_t most_histograms_read = 4096;

// A field that must be there, with the path to it in the error ("points[1].repeats[0].outcomes").
class reader {
 public:
  reader(const json& j, std::string path) : j_(j), path_(std::move(path)) {}

  reader at(const char* key) const {
    if (!j_.is_object() || !j_.contains(key)) fail(std::string("has no '") + key + "'");
    return {j_[key], path_ + "." + key};
  }
  reader at(std::size_t index) const { return {j_.at(index), path_ + "[" + std::to_string(index) + "]"}; }
  bool has(const char* key) const { return j_.is_object() && j_.contains(key) && !j_[key].is_null(); }
  std::size_t size() const {
    if (!j_.is_array()) fail("is not an array");
    return j_.size();
  }
  const json& raw() const { return j_; }
  const std::string& where() const { return path_; }

  template <class T>
  T as() const {
    try {
      return j_.get<T>();
    } catch (const json::exception&) {
      fail("has the wrong type (" + std::string(j_.type_name()) + ")");
    }
  }
  // A field of the type of `value`: text, a flag, a number, or a count (a whole number >= 0).
  template <class T>
  void into(T& value) const {
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool> || std::is_floating_point_v<T>)
      value = as<T>();
    else
      value = whole();
  }
  std::string text(const char* key) const { return at(key).as<std::string>(); }
  double number(const char* key) const { return at(key).as<double>(); }
  std::uint64_t count(const char* key) const { return at(key).whole(); }
  // A number of calls (or connections, or bytes of them): at most 2^48, 281 trillion, so that the
  // sums of merged files cannot overflow 64 bits (a run at 10 million calls/s takes 325 days to
  // count that high).
  std::uint64_t tally(const char* key) const { return at(key).tallied(); }
  std::uint64_t tallied() const {
    const std::uint64_t n = whole();
    if (n > most_tallied) fail("is " + std::to_string(n) + ", past 2^48: more than any run counts");
    return n;
  }
  static constexpr std::uint64_t most_tallied = std::uint64_t{1} << 48;
  // A count: a whole number >= 0 (get<uint64_t> would take -1 as 2^64 - 1, 2.5 as 2).
  std::uint64_t whole() const {
    if (!j_.is_number_unsigned()) fail("is not a whole number >= 0");
    return j_.get<std::uint64_t>();
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(path_ + " " + what);
  }

 private:
  const json& j_;
  std::string path_;
};

latency_histogram histogram(const reader& r) {
  std::vector<latency_histogram::bucket> buckets;
  const reader list = r.at("buckets");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const reader pair = list.at(i);
    if (pair.size() != 2) pair.fail("is not a [value_ns, count] pair");
    buckets.push_back({pair.at(std::size_t{0}).whole(), pair.at(std::size_t{1}).tallied()});
  }
  auto h = latency_histogram::restore(buckets, r.count("min_ns"), r.count("max_ns"),
                                      r.count("sum_ns"), r.count("saturated"));
  if (!h || h->count() != r.tally("count")) r.fail("is not a consistent histogram");
  return std::move(*h);
}

// A timeline (results_file.cpp's columns): every column as long as "ok", the buckets of each
// interval a coarse histogram's, in order.
timeline calls_over_time(const reader& r, double& start_unix) {
  const std::uint64_t interval_ns = r.count("interval_ns");
  if (interval_ns == 0) r.at("interval_ns").fail("is 0");
  timeline t{std::chrono::nanoseconds(interval_ns)};
  start_unix = r.number("start_unix");
  const std::size_t n = r.at("ok").size();
  // (Timelines written before spans were: as long as their intervals.)
  t.set_span(r.has("span_ns") ? std::chrono::nanoseconds(r.count("span_ns"))
                              : t.interval() * static_cast<std::int64_t>(n));
  auto column = [&](const reader& c, auto set) {
    if (c.size() != n) c.fail("has " + std::to_string(c.size()) + " intervals, 'ok' " + std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) set(t.at(i), c.at(i).whole());
  };
  column(r.at("ok"), [](timeline_interval& row, std::uint64_t v) {
    row.outcomes[static_cast<std::size_t>(outcome::ok)] = v;
  });
  const reader failed = r.at("failed");
  for (std::size_t o = 0; o < outcome_count; ++o) {
    const std::string name(outcome_name(static_cast<outcome>(o)));
    if (o == static_cast<std::size_t>(outcome::ok) || !failed.has(name.c_str())) continue;
    column(failed.at(name.c_str()), [o](timeline_interval& row, std::uint64_t v) { row.outcomes[o] = v; });
  }
  column(r.at("max_ns"), [](timeline_interval& row, std::uint64_t v) { row.max_ns = v; });
  column(r.at("reconnects"), [](timeline_interval& row, std::uint64_t v) { row.reconnects = v; });
  column(r.at("connect_failures"),
         [](timeline_interval& row, std::uint64_t v) { row.connect_failures = v; });
  if (r.has("due")) {
    column(r.at("due"), [](timeline_interval& row, std::uint64_t v) { row.due = v; });
    column(r.at("sent"), [](timeline_interval& row, std::uint64_t v) { row.sent = v; });
    column(r.at("late"), [](timeline_interval& row, std::uint64_t v) { row.late = v; });
  }
  if (r.has("workers"))  // a closed loop in worker stages
    column(r.at("workers"), [](timeline_interval& row, std::uint64_t v) { row.workers = v; });
  const reader buckets = r.at("latency_buckets");
  if (buckets.size() != n) buckets.fail("has " + std::to_string(buckets.size()) + " intervals");
  for (std::size_t i = 0; i < n; ++i) {
    const reader flat = buckets.at(i);
    if (flat.size() % 2 != 0) flat.fail("is not a list of [value_ns, count] pairs");
    auto& latency = t.at(i).latency;
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < flat.size(); k += 2) {
      const std::uint64_t value = flat.at(k).whole(), count = flat.at(k + 1).whole();
      if (count == 0 || value > coarse_latency_histogram::highest_trackable_ns ||
          value != coarse_latency_histogram::lowest_equivalent_value(value) ||
          (!latency.empty() && value <= latency.back().value_ns))
        flat.fail("is not a histogram's buckets in order");
      latency.push_back({value, count});
      total += count;
    }
    if (total != t.at(i).ok()) flat.fail("counts " + std::to_string(total) + " calls, 'ok' " +
                                         std::to_string(t.at(i).ok()));
  }
  return t;
}

outcome_counts outcomes(const reader& by_outcome, const reader& errors, const reader& samples) {
  outcome_counts o;
  for (std::size_t i = 0; i < outcome_count; ++i) {
    const auto kind = static_cast<outcome>(i);
    const std::string name(outcome_name(kind));
    // Files written before a run could leave calls unfinished have no such count: none were.
    if (kind == outcome::unfinished && !by_outcome.has(name.c_str())) continue;
    o.add_counted(kind, by_outcome.tally(name.c_str()));
  }
  if (!errors.raw().is_object()) errors.fail("is not an object");
  for (const auto& [name, n] : errors.raw().items())
    o.add_counted_error(name, errors.at(name.c_str()).tallied());
  for (std::size_t i = 0; i < samples.size(); ++i)
    o.add_sample({samples.at(i).text("error"), samples.at(i).text("text")});
  return o;
}

// A repeat's or a summary's client counts, among its other fields.
client_counts client_counts_of(const reader& r) {
  client_counts c;
  for (const auto& [name, count] : client_counts::fields) c.*count = r.tally(name);
  return c;
}

cpu_time cpu(const reader& r) { return {r.number("user_seconds"), r.number("system_seconds")}; }

user_call request(const reader& r) {
  user_call call;
  call.keyspace = r.count("keyspace");
  // Files before mixes (format 2) have neither.
  if (r.has("weight")) call.weight = static_cast<std::uint32_t>(r.count("weight"));
  if (r.has("name")) call.name = r.text("name");
  // Read by the form the kind names (user_call_form.hpp), in this program's registry.
  const std::string kind = r.text("kind");
  const user_call_form* form = protocol_registry::builtin().find_form(kind);
  if (!form) {
    std::string known;
    for (const user_call_form* f : protocol_registry::builtin().forms()) known += (known.empty() ? "" : ", ") + f->name;
    r.at("kind").fail("is '" + kind + "', not one of " + known);
  }
  try {
    call.request = form->from_results(json_fields(r.raw(), r.where()));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }
  return call;
}

point_parameters parameters(const reader& r) {
  point_parameters p;
  each_plain_parameter(p, [&r](const char* name, auto& value) { r.at(name).into(value); });
  if (r.has("requests")) {
    const reader list = r.at("requests");
    for (std::size_t i = 0; i < list.size(); ++i) p.requests.push_back(request(list.at(i)));
  } else if (r.has("request")) {  // format 2: one request, or null for the greet call
    p.requests.push_back(request(r.at("request")));
  }
  if (r.has("stages")) p.stages = r.text("stages");  // null, or absent before ramps: none
  p.calls = r.has("calls") ? r.count("calls") : 0;  // null or absent (files before -n): by duration
  return p;
}

// Repeat `r` of a point whose parameters name `requests` requests (a mix's; 0 for one call).
repeat_result repeat(const reader& r, std::size_t requests) {
  repeat_result out;
  out.load.window_seconds = r.number("window_seconds");
  out.load.window_start_unix = r.number("window_start_unix");
  if (r.at("rate_summed").as<bool>()) out.load.merged_rate = r.number("requests_per_second");
  out.load.latency = histogram(r.at("latency_histogram"));
  out.load.actual_latency = histogram(r.at("actual_latency_histogram"));
  const json no_samples = json::array();
  out.load.outcomes = outcomes(r.at("outcomes"), r.at("errors"),
                               r.has("error_samples") ? r.at("error_samples")
                                                      : reader(no_samples, "error_samples"));
  out.load.late = r.tally("late");
  out.load.planned = r.tally("planned");
  // Files written before every call was counted have neither.
  if (r.has("issued")) out.load.issued = r.tally("issued");
  if (r.has("watchdog")) out.load.watchdog = r.text("watchdog");
  if (r.has("gave_up")) out.load.gave_up = r.text("gave_up");
  out.client = client_counts_of(r);
  out.client_cpu = cpu(r.at("client_cpu"));
  if (r.has("server_cpu")) out.server_cpu = cpu(r.at("server_cpu"));
  // Files written before runs had a timeline have none.
  if (r.has("timeline")) out.load.calls_over_time = calls_over_time(r.at("timeline"), out.load.start_unix);
  if (r.has("requests")) {  // a mix's (files before mixes have none)
    const reader list = r.at("requests");
    if (list.size() > requests)  // each would be a histogram: checked before one is made
      list.fail("has " + std::to_string(list.size()) + " requests, the point " + std::to_string(requests));
    for (std::size_t i = 0; i < list.size(); ++i) {
      const reader q = list.at(i);
      request_result one;
      one.latency = histogram(q.at("latency_histogram"));
      one.outcomes = outcomes(q.at("outcomes"), q.at("errors"), q.at("error_samples"));
      one.late = q.tally("late");
      out.load.per_request.push_back(std::move(one));
    }
  }
  return out;
}

// The summary is read as written, not recomputed: it was made with the run's CPU budget, which
// the file does not hold.
point_summary summary(const reader& r, const std::vector<repeat_result>& repeats, std::size_t requests) {
  point_summary s;
  s.repeats = r.count("repeats");
  const reader rps = r.at("requests_per_second");
  s.rps_median = rps.number("median");
  s.rps_min = rps.number("min");
  s.rps_max = rps.number("max");
  auto quantiles = [](const reader& q) {
    return latency_quantiles{q.number("min"), q.number("p50"),  q.number("p90"), q.number("p99"),
                             q.number("p99_9"), q.number("max"), q.number("mean")};
  };
  s.latency = quantiles(r.at("latency_us"));
  s.actual_latency = quantiles(r.at("actual_latency_us"));
  for (const auto& rep : repeats) s.outcomes.merge(rep.load.outcomes);
  s.late = r.tally("late");
  s.planned = r.tally("planned");
  if (r.has("issued")) s.issued = r.tally("issued");
  s.client = client_counts_of(r);
  s.client_cores_used = r.number("client_cores_used");
  s.client_cpu_us_per_call = r.number("client_cpu_us_per_call");
  if (r.has("server_cores_used")) s.server_cores_used = r.number("server_cores_used");
  if (r.has("server_cpu_us_per_call")) s.server_cpu_us_per_call = r.number("server_cpu_us_per_call");
  s.client_bound = r.at("client_bound").as<bool>();
  s.warning = r.text("warning");
  if (r.has("requests")) {
    const reader list = r.at("requests");
    if (list.size() > requests)
      list.fail("has " + std::to_string(list.size()) + " requests, the point " + std::to_string(requests));
    for (std::size_t i = 0; i < list.size(); ++i) {
      const reader q = list.at(i);
      request_summary one;
      one.share = q.number("share");
      one.rps_median = q.number("requests_per_second");
      one.latency = quantiles(q.at("latency_us"));
      for (const auto& rep : repeats)
        if (i < rep.load.per_request.size()) one.outcomes.merge(rep.load.per_request[i].outcomes);
      one.late = q.tally("late");
      s.requests.push_back(std::move(one));
    }
  }
  return s;
}

}  // namespace

run_record read_results_json(std::string_view text) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) throw std::runtime_error("not JSON");
  const reader top(doc, "file");
  if (!doc.is_object() || !doc.contains("format") || !doc["format"].is_string())
    throw std::runtime_error("not a wirebench results file (no \"format\")");
  const std::string format = doc["format"].get<std::string>();
  if (format == "wirebench-results-1")
    throw std::runtime_error("format wirebench-results-1 holds no latency histograms: run it "
                             "again with this wirebench to merge it");
  // Format 2 differs only in its one "request" per point, which parameters() reads as a list.
  if (format != results_format && format != "wirebench-results-2")
    throw std::runtime_error("format '" + format + "' is not " + std::string(results_format));

  run_record run;
  run.command_line = top.text("command");
  run.started_at = top.text("started_at");
  if (top.has("incomplete")) run.incomplete = top.text("incomplete");
  const reader m = top.at("machine");
  run.machine.cpu_model = m.text("cpu_model");
  run.machine.online_cpus = m.at("online_cpus").as<unsigned>();
  run.machine.available_cpus = m.at("available_cpus").as<unsigned>();
  run.machine.kernel = m.text("kernel");
  run.machine.os = m.text("os");
  run.machine.hostname = m.text("hostname");
  run.machine.compiler = m.text("compiler");
  run.machine.optimized = m.at("optimized_build").as<bool>();
  for (const auto& [name, version] : top.at("libraries").raw().items())
    run.libraries.emplace_back(name, top.at("libraries").text(name.c_str()));
  const reader merged = top.at("merged_from");
  for (std::size_t i = 0; i < merged.size(); ++i) {
    const reader one = merged.at(i);
    run.merged_from.push_back(
        {one.text("file"), one.text("command"), one.text("started_at"), one.text("hostname")});
  }
  const json no_knees = json::array();
  const reader knees = top.has("knees") ? top.at("knees") : reader(no_knees, "file.knees");
  for (std::size_t i = 0; i < knees.size(); ++i) {
    const reader k = knees.at(i);
    knee_result knee{k.text("protocol"),      k.text("load"),
                     k.count("workers"),      k.text("slo"),
                     k.number("max_rate_met"), k.number("lowest_missed"),
                     k.text("missed_because"), k.text("stopped_because"),
                     {}};
    const reader steps = k.at("steps");
    for (std::size_t j = 0; j < steps.size(); ++j) {
      const reader st = steps.at(j);
      knee.steps.push_back({st.number("rate"), st.text("violation"), st.count("point")});
    }
    run.knees.push_back(std::move(knee));
  }
  const json no_echo = json::array();
  const reader echo = top.has("echo") ? top.at("echo") : reader(no_echo, "file.echo");
  for (std::size_t i = 0; i < echo.size(); ++i) {
    const reader c = echo.at(i);
    echo_cell cell{c.text("server"), c.text("client"), c.text("address"), c.text("method"),
                   c.count("workers"), {}, {}, c.count("calls"), c.count("failed"), {},
                   c.text("skipped")};
    for (const char* key : {"mean_us", "calls_per_second"}) {
      const reader values = c.at(key);
      auto& into = key[0] == 'm' ? cell.mean_us : cell.calls_per_second;
      for (std::size_t j = 0; j < values.size(); ++j) into.push_back(values.at(j).as<double>());
    }
    if (c.has("point")) cell.point = c.count("point");
    run.echo.push_back(std::move(cell));
  }
  const reader points = top.at("points");
  // Every repeat holds two latency histograms, and one per request of a mix, each 216 KB however
  // few calls it counts: their number is judged before one is made (a 6 MB file once asked for
  // 4 GB).
  std::size_t histograms = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const json& p = points.at(i).raw();
    if (!p.is_object() || !p.contains("repeats") || !p["repeats"].is_array()) continue;  // refused below
    for (const json& r : p["repeats"]) {
      histograms += 2;
      if (r.is_object() && r.contains("requests") && r["requests"].is_array()) histograms += r["requests"].size();
    }
  }
  if (histograms > most_histograms_read)
    top.at("points").fail("hold " + std::to_string(histograms) + " latency histograms, more than the " +
                          std::to_string(most_histograms_read) + " one file may (each takes 216 KB)");
  for (std::size_t i = 0; i < points.size(); ++i) {
    const reader p = points.at(i);
    point_result point;
    point.parameters = parameters(p.at("parameters"));
    const std::size_t requests = point.parameters.requests.size();
    const reader repeats = p.at("repeats");
    for (std::size_t k = 0; k < repeats.size(); ++k) point.repeats.push_back(repeat(repeats.at(k), requests));
    point.summary = summary(p.at("summary"), point.repeats, requests);
    run.points.push_back(std::move(point));
  }
  for (std::size_t i = 0; i < run.echo.size(); ++i)
    if (run.echo[i].point && *run.echo[i].point >= run.points.size())
      echo.at(i).at("point").fail("names no point (the file has " + std::to_string(run.points.size()) + ")");
  return run;
}

}  // namespace wirebench
