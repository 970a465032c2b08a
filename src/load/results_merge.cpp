#include "wirebench/load/results_merge.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace wirebench {
namespace {

// The same point: the same protocol and server engine, the same load of the same shape per
// generator (a merged file's shape is its generators' sum), the same request. The endpoint may
// differ: generators can reach one server by different addresses.
bool same_point(const point_parameters& a, const point_parameters& b) {
  const auto ga = static_cast<double>(std::max<std::size_t>(a.generators, 1));
  const auto gb = static_cast<double>(std::max<std::size_t>(b.generators, 1));
  auto per_generator_equal = [&](double x, double y) { return x / ga == y / gb; };
  return a.protocol == b.protocol && a.server_engine == b.server_engine && a.load == b.load &&
         per_generator_equal(static_cast<double>(a.workers), static_cast<double>(b.workers)) &&
         per_generator_equal(static_cast<double>(a.connections),
                             static_cast<double>(b.connections)) &&
         per_generator_equal(static_cast<double>(a.client_threads),
                             static_cast<double>(b.client_threads)) &&
         per_generator_equal(a.rate, b.rate) && a.stages == b.stages && a.depth == b.depth &&
         a.payload_bytes == b.payload_bytes && a.requests == b.requests;
}

[[noreturn]] void refuse(const std::string& why) { throw std::runtime_error(why); }

// Repeat k's timelines, lined up by the wall-clock time each started (to the nearest interval)
// and added: the merged one starts with the earliest. Files without timelines give none.
void merge_timelines(const std::vector<const point_result*>& points,
                     const std::vector<results_input>& inputs, std::size_t k, load_result& out) {
  const timeline& first = points[0]->repeats[k].load.calls_over_time;
  double earliest = std::numeric_limits<double>::max();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const load_result& r = points[i]->repeats[k].load;
    if (r.calls_over_time.size() == 0) return;
    if (r.calls_over_time.interval() != first.interval())
      refuse(inputs[i].file + ": its timeline's interval is not " + inputs[0].file + "'s");
    earliest = std::min(earliest, r.start_unix);
  }
  const double interval_s = std::chrono::duration<double>(first.interval()).count();
  out.calls_over_time = timeline(first.interval());
  out.start_unix = earliest;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const load_result& r = points[i]->repeats[k].load;
    // The inputs' windows overlap (merge_repeat checked), so their timelines start close; one
    // that claims to start far off would make the merged timeline span the gap.
    const double offset = std::round((r.start_unix - earliest) / interval_s);
    if (!(offset <= static_cast<double>(first.size() + r.calls_over_time.size())))
      refuse(inputs[i].file + ": repeat " + std::to_string(k + 1) + "'s timeline starts " +
             std::to_string(static_cast<long long>(r.start_unix - earliest)) + " s after " + inputs[0].file +
             "'s, beyond both");
    out.calls_over_time.merge(r.calls_over_time, static_cast<std::size_t>(offset));
  }
}

// Repeat k of every input, merged.
repeat_result merge_repeat(const std::vector<const point_result*>& points,
                           const std::vector<results_input>& inputs, std::size_t k,
                           std::string& warning) {
  repeat_result out;
  double common_start = std::numeric_limits<double>::lowest();
  double common_end = std::numeric_limits<double>::max();
  double shortest = std::numeric_limits<double>::max();
  bool all_server_cpu = true;
  cpu_time server;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const repeat_result& r = points[i]->repeats[k];
    if (r.load.window_start_unix <= 0)
      refuse(inputs[i].file + ": repeat " + std::to_string(k + 1) + " has no window start time");
    common_start = std::max(common_start, r.load.window_start_unix);
    common_end = std::min(common_end, r.load.window_start_unix + r.load.window_seconds);
    shortest = std::min(shortest, r.load.window_seconds);
    out.load.latency.merge(r.load.latency);
    out.load.actual_latency.merge(r.load.actual_latency);
    out.load.outcomes.merge(r.load.outcomes);
    out.load.late += r.load.late;
    // A mix's requests (same_point() made them the same list in every input).
    if (out.load.per_request.size() < r.load.per_request.size())
      out.load.per_request.resize(r.load.per_request.size());
    for (std::size_t q = 0; q < r.load.per_request.size(); ++q) {
      out.load.per_request[q].latency.merge(r.load.per_request[q].latency);
      out.load.per_request[q].outcomes.merge(r.load.per_request[q].outcomes);
      out.load.per_request[q].late += r.load.per_request[q].late;
    }
    out.load.planned += r.load.planned;
    out.load.issued += r.load.issued;
    if (!r.load.watchdog.empty())
      out.load.watchdog += (out.load.watchdog.empty() ? "" : "; ") + inputs[i].file + ": " +
                           r.load.watchdog;
    out.load.merged_rate += r.load.requests_per_second();
    out.client += r.client;
    out.client_cpu.user_seconds += r.client_cpu.user_seconds;
    out.client_cpu.system_seconds += r.client_cpu.system_seconds;
    if (r.server_cpu) {
      server.user_seconds += r.server_cpu->user_seconds;
      server.system_seconds += r.server_cpu->system_seconds;
    } else {
      all_server_cpu = false;
    }
  }
  if (common_end <= common_start)
    refuse(describe_point(points[0]->parameters) + ", repeat " + std::to_string(k + 1) +
           ": the generators' measured windows do not overlap (they must run at the same time)");
  // Only now: inputs hours apart would have the merged timeline span the hours between them.
  merge_timelines(points, inputs, k, out.load);
  out.load.window_start_unix = common_start;
  out.load.window_seconds = common_end - common_start;
  if (all_server_cpu) out.server_cpu = server;
  // Each generator's rate is over its own window; when the windows overlap little, the sum
  // describes no moment at which the server carried that load.
  if (out.load.window_seconds < 0.9 * shortest && warning.empty()) {
    char why[160];
    std::snprintf(why, sizeof why,
                  "the generators ran together for only %.0f%% of their windows (repeat %zu)",
                  100 * out.load.window_seconds / shortest, k + 1);
    warning = why;
  }
  return out;
}

point_result merge_point(const std::vector<const point_result*>& points,
                         const std::vector<results_input>& inputs) {
  const point_result& first = *points[0];
  point_result out;
  out.parameters = first.parameters;
  point_parameters& p = out.parameters;
  p.workers = p.connections = p.client_threads = p.generators = 0;
  p.rate = 0;
  std::string warning;
  bool client_bound = false;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const point_result& q = *points[i];
    if (q.repeats.size() != first.repeats.size())
      refuse(describe_point(first.parameters) + ": " + inputs[i].file + " has " + std::to_string(q.repeats.size()) +
             " repeats, " + inputs[0].file + " " + std::to_string(first.repeats.size()));
    if (q.parameters.duration_seconds != first.parameters.duration_seconds ||
        q.parameters.calls != first.parameters.calls)
      refuse(describe_point(first.parameters) + ": the durations or call counts differ (" +
             inputs[0].file + " and " + inputs[i].file + ")");
    p.workers += q.parameters.workers;
    p.connections += q.parameters.connections;
    p.client_threads += q.parameters.client_threads;
    p.generators += q.parameters.generators;
    p.rate += q.parameters.rate;
    p.server_local = p.server_local && q.parameters.server_local;
    if (q.summary.client_bound) {
      client_bound = true;
      if (warning.empty()) warning = inputs[i].file + ": " + q.summary.warning;
    }
  }
  for (std::size_t k = 0; k < first.repeats.size(); ++k)
    out.repeats.push_back(merge_repeat(points, inputs, k, warning));
  // The inputs judged whether each generator was the limit, with budgets the files do not hold:
  // their verdicts are kept, not judged again.
  const cpu_budget never_bound{std::numeric_limits<double>::max(),
                               std::numeric_limits<double>::max()};
  out.summary = summarize(out.repeats, never_bound);
  out.summary.client_bound = client_bound;
  out.summary.warning = warning;
  return out;
}

}  // namespace

run_record merge_results(const std::vector<results_input>& inputs) {
  if (inputs.size() < 2) refuse("merge needs at least two results files");
  const results_input& base = inputs[0];
  for (const auto& in : inputs)
    if (!in.run.knees.empty())
      refuse(in.file + " is a rate search: each generator chose its own rates");
  for (const auto& in : inputs)
    if (!in.run.echo.empty())
      refuse(in.file + " is article 003's echo table: its servers were started by its run");
  for (const auto& in : inputs)
    for (const auto& p : in.run.points)
      if (p.parameters.server_local)
        refuse(in.file + " loaded a server it started itself: merge adds generators that loaded "
               "one server they were given");

  run_record out;
  out.command_line = "wirebench merge";
  for (const auto& in : inputs) out.command_line += " " + in.file;
  out.started_at = base.run.started_at;
  out.machine = base.run.machine;
  out.libraries = base.run.libraries;
  // Every generator once: a merged input stands for the generators it was made of, so that a
  // generator given twice (itself, and inside a merged file) is refused, not counted twice.
  std::vector<std::string> given_as;  // beside out.merged_from: the input that brought each
  for (const auto& in : inputs) {
    out.started_at = std::min(out.started_at, in.run.started_at);
    std::vector<merged_input> generators = in.run.merged_from;
    if (generators.empty())
      generators.push_back({in.file, in.run.command_line, in.run.started_at, in.run.machine.hostname});
    for (const merged_input& g : generators) {
      for (std::size_t k = 0; k < out.merged_from.size(); ++k) {
        const merged_input& seen = out.merged_from[k];
        if (seen.started_at == g.started_at && seen.command_line == g.command_line &&
            seen.hostname == g.hostname)
          refuse(in.file + (in.run.merged_from.empty() ? "" : " (a merged file)") +
                 " holds the same run as " + given_as[k] + ": a generator would count twice");
      }
      out.merged_from.push_back(g);
      given_as.push_back(in.file);
    }
  }

  // Points match one to one: two equal points in one file (--workers 16,16) would otherwise both
  // take the same point of another, and its twin would be dropped unseen.
  for (const results_input& in : inputs) {
    const auto& points = in.run.points;
    for (std::size_t a = 0; a < points.size(); ++a)
      for (std::size_t b = a + 1; b < points.size(); ++b)
        if (same_point(points[a].parameters, points[b].parameters))
          refuse(in.file + " holds the point " + describe_point(points[a].parameters) +
                 " twice: which to merge with which is ambiguous");
  }
  for (std::size_t i = 1; i < inputs.size(); ++i)
    if (inputs[i].run.points.size() != base.run.points.size())
      refuse(inputs[i].file + " has " + std::to_string(inputs[i].run.points.size()) + " points, " +
             base.file + " " + std::to_string(base.run.points.size()));
  for (const point_result& point : base.run.points) {
    std::vector<const point_result*> matching = {&point};
    for (std::size_t i = 1; i < inputs.size(); ++i) {
      const auto& others = inputs[i].run.points;
      const auto found = std::find_if(others.begin(), others.end(), [&](const point_result& q) {
        return same_point(point.parameters, q.parameters);
      });
      if (found == others.end())
        refuse(base.file + "'s point " + describe_point(point.parameters) + " is not in " +
               inputs[i].file + " (same protocol, load, shape and request)");
      matching.push_back(&*found);
    }
    out.points.push_back(merge_point(matching, inputs));
  }
  return out;
}

}  // namespace wirebench
