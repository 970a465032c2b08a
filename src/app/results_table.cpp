// The table `wirebench run` prints: one row per point, medians over the repeats, latency from the
// intended start for open loads, failures and late sends beside the percentiles.
#include <algorithm>
#include <cstdio>
#include <utility>

#include "run_plan.hpp"
#include "table_text.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench::app {
namespace {

// Late sends of an open loop, with their share of the planned calls.
std::string late_text(const point_parameters& p, const point_summary& s) {
  if (p.load == "closed") return "-";
  char share[32];
  std::snprintf(share, sizeof share, " (%.3g%%)",  // 100%, 1%, 0.25%: never 1e+02%
                s.planned ? 100.0 * static_cast<double>(s.late) / static_cast<double>(s.planned) : 0.0);
  return std::to_string(s.late) + share;
}

// A failure's words on one table line: control bytes (a body's newlines) as spaces.
std::string printable(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return text;
}

// What a --find-max-rate search found, and why the step above it missed.
std::string knee_line(const knee_result& k) {
  std::string line = "knee: " + k.protocol + " " + k.load + " workers=" +
                     std::to_string(k.workers) + ": ";
  if (k.max_rate_met > 0) {
    line += count(k.max_rate_met) + " calls/s met " + k.slo;
  } else {
    line += "no rate met " + k.slo;
  }
  if (k.lowest_missed > 0) {
    line += (k.max_rate_met > 0 ? "; the step above, " : "; down to ") + count(k.lowest_missed) +
            "/s, missed: " + k.missed_because;
  } else if (k.stopped_because.empty()) {
    line += " up to --max-rate (the search's ceiling)";
  }
  line += " (" + std::to_string(k.steps.size()) + " steps)";
  if (!k.stopped_because.empty()) line += "; the search stopped early: " + k.stopped_because;
  return line;
}

// A mix's requests, point by point: each one's weight, its share of the calls made, its rate,
// latency and failures (its p99 beside the point's shows which request holds the tail).
void print_mixes(std::ostream& out, const run_record& run) {
  for (const auto& point : run.points) {
    const auto& p = point.parameters;
    const auto& s = point.summary;
    if (p.requests.size() < 2 || s.requests.size() != p.requests.size()) continue;
    std::uint64_t weights = 0;
    for (const user_call& call : p.requests) weights += call.weight;
    out << "\nrequests of " << describe_point(p) << ":\n";
    std::vector<std::vector<std::string>> rows = {
        {"#", "request", "weight", "calls", "req/s", "p50", "p90", "p99", "max", "failed", "late"}};
    for (std::size_t i = 0; i < p.requests.size(); ++i) {
      const request_summary& q = s.requests[i];
      const bool timed = q.outcomes.count(outcome::ok) > 0;
      auto latency = [timed](double us) { return timed ? microseconds(us) : std::string("-"); };
      char weight[64], share[32];
      std::snprintf(weight, sizeof weight, "%u (%.1f%%)", p.requests[i].weight,
                    100.0 * p.requests[i].weight / static_cast<double>(weights));
      std::snprintf(share, sizeof share, "%.1f%%", 100 * q.share);
      std::string text = label(p.requests[i]);
      if (text.size() > 48) text = text.substr(0, 45) + "...";
      rows.push_back({std::to_string(i), printable(text), weight, share, count(q.rps_median),
                      latency(q.latency.p50), latency(q.latency.p90), latency(q.latency.p99),
                      latency(q.latency.max), std::to_string(q.outcomes.failed()),
                      p.load == "closed" ? "-" : std::to_string(q.late)});
    }
    write_rows(out, rows);
  }
}

}  // namespace

void print_table(std::ostream& out, const run_record& run) {
  if (run.points.empty()) {
    out << "no results" << (run.incomplete.empty() ? "" : " (" + run.incomplete + ")") << "\n";
    return;
  }
  // A transport column only when some point did not run over plain TCP (TLS, Unix sockets).
  const bool show_transport = std::any_of(run.points.begin(), run.points.end(), [](const auto& p) {
    return p.parameters.transport != "tcp";
  });
  std::vector<std::string> header = {"protocol", "load", "workers", "conns", "req/s", "(min-max)",
                                     "mean", "p50", "p90", "p99", "p99.9", "max", "failed", "late",
                                     "cli cpu/call", "srv cpu/call"};
  if (show_transport) header.insert(header.begin() + 2, "transport");
  std::vector<std::vector<std::string>> rows = {header};
  std::vector<std::string> warnings;
  // Each placement, with the protocols that ran under it, in the order first seen.
  std::vector<std::pair<std::string, std::vector<std::string>>> placements;
  for (const auto& point : run.points) {
    const auto& p = point.parameters;
    const auto& s = point.summary;
    std::string load = p.load;
    if (p.load != "closed") {  // piecewise: GCC 12 warns falsely on "@" + std::string
      load += p.stages.empty() ? "@" : "@ramp to ";
      load += count(p.rate);
      load += "/s";
    }
    // Without a successful call there is no latency to show ("-", not "0us").
    const bool timed = s.outcomes.count(outcome::ok) > 0;
    auto latency = [timed](double us) { return timed ? microseconds(us) : std::string("-"); };
    std::vector<std::string> row = {
        p.protocol, load, std::to_string(p.workers), std::to_string(p.connections),
        count(s.rps_median), count(s.rps_min) + "-" + count(s.rps_max), latency(s.latency.mean), latency(s.latency.p50),
        latency(s.latency.p90), latency(s.latency.p99), latency(s.latency.p999),
        latency(s.latency.max), std::to_string(s.outcomes.failed()), late_text(p, s),
        microseconds(s.client_cpu_us_per_call),
        s.server_cpu_us_per_call ? microseconds(*s.server_cpu_us_per_call) : "-"};
    if (show_transport) row.insert(row.begin() + 2, p.transport);
    rows.push_back(std::move(row));
    const std::string label = p.protocol + " " + load + " workers=" + std::to_string(p.workers);
    if (s.outcomes.count(outcome::ok) == 0)
      warnings.push_back(label + ": no call succeeded: its latencies are empty and its rate 0; the "
                         "failures below say why");
    if (!s.warning.empty()) warnings.push_back(label + ": " + s.warning);
    if (s.outcomes.failed() > 0) {
      std::string why;
      for (const auto& [name, n] : s.outcomes.errors()) why += " " + name + "=" + std::to_string(n);
      for (const auto& sample : s.outcomes.samples())
        why += "; " + sample.error + " said \"" + printable(sample.text) + "\"";
      warnings.push_back(label + ": failed calls:" + why);
    }
    for (const auto& r : point.repeats)
      if (!r.load.gave_up.empty())  // -n's cap: fewer calls than asked for
        warnings.push_back(label + ": " + r.load.gave_up + "; " +
                           std::to_string(r.load.outcomes.total()) + " were counted");
    for (const auto& r : point.repeats)
      if (!r.load.watchdog.empty())
        warnings.push_back(label + ": the watchdog ended a repeat with calls in flight (" +
                           r.load.watchdog + "): they are counted as unfinished");
    if (s.client.late_replies + s.client.unknown_replies > 0)
      warnings.push_back(label + ": " +
                         std::to_string(s.client.late_replies) + " late and " +
                         std::to_string(s.client.unknown_replies) +
                         " unknown replies (after their call had ended, or for no call)");
    // A connection per call is that protocol's design: its reconnects are worth a line only with
    // calls sent again or dials that failed.
    const protocol* entry = protocol_registry::builtin().find(p.protocol);
    const bool by_design = entry != nullptr && entry->can.connection_per_call;
    if ((by_design ? s.client.resent : s.client.reconnects) + s.client.connect_failures > 0) {
      // The client closes a connection too: after a reply over --max-reply, or one it cannot read.
      const auto& errors = s.outcomes.errors();
      const bool own_close = errors.contains("frame_too_long") || errors.contains("protocol_error");
      warnings.push_back(label + ": " + std::to_string(s.client.reconnects) + " reconnects (" +
                         (own_close ? "the client closed a connection after a reply it could not take, "
                                      "or the server closed one; "
                                    : "the server closed or sent away a connection; ") +
                         std::to_string(s.client.resent) + " unprocessed calls sent again), " +
                         std::to_string(s.client.connect_failures) + " failed dials");
    }
    if (s.outcomes.errors().contains("frame_too_long"))
      warnings.push_back(label + ": frame_too_long: a reply over the client's --max-reply (raise it), or a "
                         "request over the server's limit");
    // A server wirebench did not start (--connect) has no threads or CPUs it could say.
    const std::string placement =
        (p.transport.starts_with("remote") ? std::string("server not started by wirebench (its CPU unmeasured)")
                                 : "server threads " + std::to_string(p.server_threads) + " on cpus " +
                                       p.server_cpus +
                                       (p.server_engine.empty() ? "" : " (" + p.server_engine + " engine)")) +
        ", client threads " + std::to_string(p.client_threads) + " on cpus " + p.client_cpus;
    auto at = std::find_if(placements.begin(), placements.end(),
                           [&](const auto& known) { return known.first == placement; });
    if (at == placements.end()) at = placements.insert(placements.end(), {placement, {}});
    if (std::find(at->second.begin(), at->second.end(), p.protocol) == at->second.end())
      at->second.push_back(p.protocol);
  }
  write_rows(out, rows);
  const auto& first = run.points.front();
  out << "\nreq/s: successful calls per second, median of " << first.summary.repeats
      << " repeat(s) (min-max across them); mean and latency percentiles are medians over the repeats, "
         "timed from each call's intended start for open loads (late = sent more than "
      << first.parameters.late_after_ms << " ms after it); cpu/call = user+sys CPU per call.\n";
  out << "machine: " << run.machine.cpu_model << ", " << run.machine.available_cpus << " of "
      << run.machine.online_cpus << " CPUs, " << run.machine.kernel << "\n";
  // One placement: it is every point's. Several (a server engine, threads per protocol): each
  // says whose it is.
  for (const auto& [placement, protocols] : placements) {
    out << "placement";
    if (placements.size() > 1) {
      out << " (";
      for (std::size_t i = 0; i < protocols.size(); ++i) out << (i ? ", " : "") << protocols[i];
      out << ")";
    }
    out << ": " << placement << "\n";
  }
  if (!run.merged_from.empty()) {
    out << "merged from " << run.merged_from.size() << " generators (workers, conns and req/s "
        "are their sums, cpu/call is theirs over all their calls, latency is read from their "
        "histograms added):";
    for (const auto& m : run.merged_from) out << " " << m.file << " (" << m.hostname << ")";
    out << "\n";
  }
  if (!first.parameters.stages.empty())
    out << "stages: " << first.parameters.stages
        << (first.parameters.load == "closed" ? " (workers from 0, each stage linear to its count)\n"
                                              : " (from 0 calls/s, each linear to its rate)\n");
  if (first.parameters.requests.size() == 1)
    out << "request: " << describe(first.parameters.requests.front()) << "\n";
  print_mixes(out, run);
  for (const auto& k : run.knees) out << knee_line(k) << "\n";
  if (!run.incomplete.empty())
    out << "incomplete: " << run.incomplete << "; only the points finished before are here\n";
  for (const auto& w : warnings) out << "warning: " << w << "\n";
}

}  // namespace wirebench::app
