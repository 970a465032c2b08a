#include "wirebench/load/results_file.hpp"

#include <iomanip>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "wirebench/protocols/user_call_form.hpp"
#include "results_fields.hpp"

namespace wirebench {
namespace {

using nlohmann::json;

json quantiles_json(const latency_quantiles& q) {
  return {{"min", q.min}, {"p50", q.p50}, {"p90", q.p90}, {"p99", q.p99},
          {"p99_9", q.p999}, {"max", q.max}, {"mean", q.mean}};
}

json outcomes_json(const outcome_counts& o) {
  json j;
  for (std::size_t i = 0; i < outcome_count; ++i) {
    const auto kind = static_cast<outcome>(i);
    j[std::string(outcome_name(kind))] = o.count(kind);
  }
  return j;
}

// The first distinct failures and what came back with them, so a result says why calls failed.
json error_samples_json(const outcome_counts& o) {
  json j = json::array();
  for (const auto& s : o.samples()) j.push_back({{"error", s.error}, {"text", s.text}});
  return j;
}

// The whole histogram, compactly: its non-empty buckets as [lowest value in ns, count] pairs, with
// the exact figures the buckets round (results_reader.cpp reads it back).
json histogram_json(const latency_histogram& h) {
  json buckets = json::array();
  for (const auto& b : h.nonempty_buckets()) buckets.push_back({b.value_ns, b.count});
  return {{"count", h.count()}, {"min_ns", h.min()}, {"max_ns", h.max()},
          {"sum_ns", h.sum_ns()}, {"saturated", h.saturated()}, {"buckets", std::move(buckets)}};
}

// The run interval by interval, as columns (one array per figure, one entry per interval), which
// is how charts take them: counts, the latency p50/p99 (us, within 1/32) and exact max (ns), and
// each interval's coarse latency buckets as a flat [value_ns, count, ...] list, from which
// results_reader.cpp rebuilds it exactly. An outcome no call ended with, and an open loop's
// columns in a closed loop's, are left out.
json timeline_json(const timeline& t, double start_unix) {
  const auto& rows = t.intervals();
  auto column = [&rows](auto field) {
    json c = json::array();
    for (const timeline_interval& row : rows) c.push_back(field(row));
    return c;
  };
  json failed = json::object();
  for (std::size_t i = 0; i < outcome_count; ++i) {
    const auto kind = static_cast<outcome>(i);
    if (kind == outcome::ok) continue;
    bool any = false;
    for (const timeline_interval& row : rows) any = any || row.outcomes[i] != 0;
    if (any)
      failed[std::string(outcome_name(kind))] = column([i](const auto& r) { return r.outcomes[i]; });
  }
  auto us = [](std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; };
  json p50 = json::array(), p99 = json::array(), buckets = json::array();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    p50.push_back(us(t.percentile(k, 50)));
    p99.push_back(us(t.percentile(k, 99)));
    json flat = json::array();
    for (const auto& b : rows[k].latency) {
      flat.push_back(b.value_ns);
      flat.push_back(b.count);
    }
    buckets.push_back(std::move(flat));
  }
  json j = {{"interval_ns", t.interval().count()},
            {"start_unix", start_unix},
            {"span_ns", t.span().count()},
            {"ok", column([](const auto& r) { return r.ok(); })},
            {"failed", std::move(failed)},
            {"p50_us", std::move(p50)},
            {"p99_us", std::move(p99)},
            {"max_ns", column([](const auto& r) { return r.max_ns; })},
            {"reconnects", column([](const auto& r) { return r.reconnects; })},
            {"connect_failures", column([](const auto& r) { return r.connect_failures; })},
            {"latency_buckets", std::move(buckets)}};
  bool open_loop = false;
  for (const timeline_interval& row : rows) open_loop = open_loop || row.due != 0;
  if (open_loop) {
    j["due"] = column([](const auto& r) { return r.due; });
    j["sent"] = column([](const auto& r) { return r.sent; });
    j["late"] = column([](const auto& r) { return r.late; });
  }
  bool worker_stages = false;
  for (const timeline_interval& row : rows) worker_stages = worker_stages || row.workers != 0;
  if (worker_stages) j["workers"] = column([](const auto& r) { return r.workers; });
  return j;
}

json cpu_json(const cpu_time& c) {
  return {{"user_seconds", c.user_seconds}, {"system_seconds", c.system_seconds}};
}

// A user call a point sent, whole, so that a result says what was loaded.
json request_json(const user_call& call) {
  // Its family's fields, by its form (user_call_form.hpp), under the form's name.
  json j = call.form()->to_results(call.request);
  j["kind"] = call.form()->name;
  j["text"] = describe(call);
  j["keyspace"] = call.keyspace;
  j["weight"] = call.weight;
  j["name"] = call.name;
  return j;
}

// What a point sent: empty for the greet call, one request, or a mix.
json requests_json(const std::vector<user_call>& calls) {
  json j = json::array();
  for (const user_call& call : calls) j.push_back(request_json(call));
  return j;
}

// A mix's requests over the repeats, in the parameters' order.
json request_summaries_json(const std::vector<request_summary>& requests) {
  json j = json::array();
  for (const request_summary& q : requests)
    j.push_back({{"share", q.share},
                 {"requests_per_second", q.rps_median},
                 {"latency_us", quantiles_json(q.latency)},
                 {"outcomes", outcomes_json(q.outcomes)},
                 {"errors", q.outcomes.errors()},
                 {"error_samples", error_samples_json(q.outcomes)},
                 {"late", q.late}});
  return j;
}

json parameters_json(const point_parameters& p) {
  json j = {{"requests", requests_json(p.requests)},
            {"stages", p.stages.empty() ? json(nullptr) : json(p.stages)},
            {"calls", p.calls > 0 ? json(p.calls) : json(nullptr)}};
  each_plain_parameter(p, [&j](const char* name, const auto& value) { j[name] = value; });
  return j;
}

// A repeat's or a summary's client counts, beside its other fields.
void add_client_counts(json& j, const client_counts& c) {
  for (const auto& [name, count] : client_counts::fields) j[name] = c.*count;
}

json summary_json(const point_summary& s) {
  json j = {{"repeats", s.repeats},
            {"requests_per_second", {{"median", s.rps_median}, {"min", s.rps_min}, {"max", s.rps_max}}},
            {"latency_us", quantiles_json(s.latency)},
            {"actual_latency_us", quantiles_json(s.actual_latency)},
            {"outcomes", outcomes_json(s.outcomes)},
            {"errors", s.outcomes.errors()},
            {"error_samples", error_samples_json(s.outcomes)},
            {"late", s.late},
            {"planned", s.planned},
            {"issued", s.issued},
            {"client_cores_used", s.client_cores_used},
            {"client_cpu_us_per_call", s.client_cpu_us_per_call},
            {"server_cores_used", nullptr},
            {"server_cpu_us_per_call", nullptr},
            {"client_bound", s.client_bound},
            {"warning", s.warning},
            {"requests", request_summaries_json(s.requests)}};
  if (s.server_cores_used) j["server_cores_used"] = *s.server_cores_used;
  if (s.server_cpu_us_per_call) j["server_cpu_us_per_call"] = *s.server_cpu_us_per_call;
  add_client_counts(j, s.client);
  return j;
}

json repeat_json(const repeat_result& r) {
  json j = {{"window_seconds", r.load.window_seconds},
            {"window_start_unix", r.load.window_start_unix},
            {"requests_per_second", r.load.requests_per_second()},
            {"rate_summed", r.load.merged_rate > 0},  // requests_per_second is the generators' sum
            {"latency_us", quantiles_json(latency_quantiles::of(r.load.latency))},
            {"actual_latency_us", quantiles_json(latency_quantiles::of(r.load.actual_latency))},
            {"latency_histogram", histogram_json(r.load.latency)},
            {"actual_latency_histogram", histogram_json(r.load.actual_latency)},
            {"outcomes", outcomes_json(r.load.outcomes)},
            {"errors", r.load.outcomes.errors()},
            {"error_samples", error_samples_json(r.load.outcomes)},
            {"late", r.load.late},
            {"planned", r.load.planned},
            {"issued", r.load.issued},
            {"watchdog", r.load.watchdog},
            {"gave_up", r.load.gave_up},
            {"client_cpu", cpu_json(r.client_cpu)},
            {"server_cpu", nullptr},
            {"timeline", timeline_json(r.load.calls_over_time, r.load.start_unix)}};
  json requests = json::array();  // a mix's, each whole (results_reader.cpp reads them back)
  for (const request_result& q : r.load.per_request)
    requests.push_back({{"latency_histogram", histogram_json(q.latency)},
                        {"outcomes", outcomes_json(q.outcomes)},
                        {"errors", q.outcomes.errors()},
                        {"error_samples", error_samples_json(q.outcomes)},
                        {"late", q.late}});
  j["requests"] = std::move(requests);
  if (r.server_cpu) j["server_cpu"] = cpu_json(*r.server_cpu);
  add_client_counts(j, r.client);
  return j;
}

// CSV fields never hold a comma or quote from us except free text: quote those.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string results_json(const run_record& run) {
  json libraries = json::object();
  for (const auto& [name, version] : run.libraries) libraries[name] = version;
  json points = json::array();
  for (const auto& p : run.points) {
    json repeats = json::array();
    for (const auto& r : p.repeats) repeats.push_back(repeat_json(r));
    points.push_back({{"parameters", parameters_json(p.parameters)},
                      {"summary", summary_json(p.summary)},
                      {"repeats", std::move(repeats)}});
  }
  const machine_info& m = run.machine;
  json merged_from = json::array();
  for (const merged_input& m : run.merged_from)
    merged_from.push_back({{"file", m.file}, {"command", m.command_line},
                           {"started_at", m.started_at}, {"hostname", m.hostname}});
  json knees = json::array();
  for (const knee_result& k : run.knees) {
    json steps = json::array();
    for (const knee_step& st : k.steps)
      steps.push_back({{"rate", st.rate}, {"met", st.violation.empty()},
                       {"violation", st.violation}, {"point", st.point}});
    knees.push_back({{"protocol", k.protocol}, {"load", k.load}, {"workers", k.workers},
                     {"slo", k.slo}, {"max_rate_met", k.max_rate_met},
                     {"lowest_missed", k.lowest_missed}, {"missed_because", k.missed_because},
                     {"stopped_because", k.stopped_because},
                     {"steps", std::move(steps)}});
  }
  json echo = json::array();
  for (const echo_cell& c : run.echo)
    echo.push_back({{"server", c.server}, {"client", c.client}, {"address", c.address},
                    {"method", c.method}, {"workers", c.workers}, {"mean_us", c.mean_us},
                    {"calls_per_second", c.calls_per_second}, {"calls", c.calls},
                    {"failed", c.failed}, {"point", c.point ? json(*c.point) : json(nullptr)},
                    {"skipped", c.skipped}});
  json doc = {{"format", results_format},
              {"command", run.command_line},
              {"started_at", run.started_at},
              {"incomplete", run.incomplete},
              {"machine",
               {{"cpu_model", m.cpu_model},
                {"online_cpus", m.online_cpus},
                {"available_cpus", m.available_cpus},
                {"kernel", m.kernel},
                {"os", m.os},
                {"hostname", m.hostname},
                {"compiler", m.compiler},
                {"optimized_build", m.optimized}}},
              {"libraries", std::move(libraries)},
              {"merged_from", std::move(merged_from)},
              {"knees", std::move(knees)},
              {"echo", std::move(echo)},
              {"points", std::move(points)}};
  // Bytes that are not UTF-8 (a request body from a file) become U+FFFD rather than an exception.
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

const std::vector<std::string>& results_csv_columns() {
  static const std::vector<std::string> columns = {
      "protocol", "load", "workers", "depth", "connections", "rate", "duration_seconds",
      "calls", "payload_bytes", "transport", "server_threads", "server_engine", "client_threads",
      "server_cpus", "client_cpus", "repeats", "rps_median", "rps_min", "rps_max", "min_us",
      "p50_us", "p90_us", "p99_us", "p99_9_us", "max_us", "mean_us", "actual_p50_us",
      "actual_p99_us", "ok", "timeout", "canceled", "connection_closed", "rejected", "wrong_reply",
      "other_error", "unfinished", "late", "planned", "issued", "late_replies", "unknown_replies", "reconnects", "resent",
      "connect_failures", "client_cores_used",
      "server_cores_used", "client_cpu_us_per_call", "server_cpu_us_per_call", "client_bound",
      "cpu_model", "kernel", "request", "request_index", "request_share", "stages"};
  return columns;
}

std::string results_csv(const run_record& run) {
  std::ostringstream out;
  out << std::setprecision(9);
  const auto& columns = results_csv_columns();
  for (std::size_t i = 0; i < columns.size(); ++i) out << (i ? "," : "") << columns[i];
  out << "\n";
  auto optional = [](const std::optional<double>& v) {
    std::ostringstream s;
    s << std::setprecision(9);
    if (v) s << *v;
    return s.str();
  };
  auto latencies = [&out](const latency_quantiles& q) {
    out << ',' << q.min << ',' << q.p50 << ',' << q.p90 << ',' << q.p99 << ',' << q.p999 << ','
        << q.max << ',' << q.mean;
  };
  auto outcomes = [&out](const outcome_counts& o) {
    for (std::size_t i = 0; i < outcome_count; ++i) out << ',' << o.count(static_cast<outcome>(i));
  };
  for (const auto& point : run.points) {
    const auto& p = point.parameters;
    const auto& s = point.summary;
    // The point's own columns, the same on its rows and its requests' rows.
    std::ostringstream prefix;
    prefix << std::setprecision(9) << csv_field(p.protocol) << ',' << p.load << ',' << p.workers
           << ',' << p.depth << ',' << p.connections << ',' << p.rate << ',' << p.duration_seconds
           << ',' << (p.calls > 0 ? std::to_string(p.calls) : "") << ',' << p.payload_bytes << ','
           << p.transport << ',' << p.server_threads << ',' << csv_field(p.server_engine) << ','
           << p.client_threads << ',' << csv_field(p.server_cpus) << ','
           << csv_field(p.client_cpus) << ',' << s.repeats;
    out << prefix.str() << ',' << s.rps_median << ',' << s.rps_min << ',' << s.rps_max;
    latencies(s.latency);
    out << ',' << s.actual_latency.p50 << ',' << s.actual_latency.p99;
    outcomes(s.outcomes);
    out << ',' << s.late << ',' << s.planned << ',' << s.issued << ',' << s.client.late_replies << ','
        << s.client.unknown_replies << ',' << s.client.reconnects << ',' << s.client.resent << ','
        << s.client.connect_failures
        << ',' << s.client_cores_used << ','
        << optional(s.server_cores_used) << ',' << s.client_cpu_us_per_call << ','
        << optional(s.server_cpu_us_per_call) << ',' << (s.client_bound ? 1 : 0) << ','
        << csv_field(run.machine.cpu_model) << ',' << csv_field(run.machine.kernel) << ',';
    if (p.requests.empty()) out << "greet";
    else if (p.requests.size() == 1) out << csv_field(describe(p.requests.front()));
    else out << "mix of " << p.requests.size();
    out << ",," << csv_field(p.stages) << "\n";
    // A mix: a row per request after the point's, with its own rate, latency, outcomes and late
    // count; the columns that belong to the point alone (CPU, connections, planned) left empty.
    for (std::size_t i = 0; i < s.requests.size() && i < p.requests.size(); ++i) {
      const request_summary& q = s.requests[i];
      out << prefix.str() << ',' << q.rps_median << ",,";
      latencies(q.latency);
      out << ",,";
      outcomes(q.outcomes);
      out << ',' << q.late << ",,,,,,,,,,,,," << csv_field(run.machine.cpu_model) << ','
          << csv_field(run.machine.kernel) << ',' << csv_field(label(p.requests[i])) << ',' << i
          << ',' << q.share << ',' << csv_field(p.stages) << "\n";
    }
  }
  return out.str();
}

}  // namespace wirebench
