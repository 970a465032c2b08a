#pragma once
// One point of a sweep (a protocol at one load) run R times, and what its repeats add up to:
// medians over the repeats, with the spread, because on a small noisy machine one run proves little.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "wirebench/load/cpu_usage.hpp"
#include "wirebench/load/load_spec.hpp"
#include "wirebench/protocols/protocol_client.hpp"
#include "wirebench/protocols/user_call.hpp"

namespace wirebench {

struct point_parameters {
  std::string protocol;
  std::string load = "closed";  // closed, or the open loop's arrivals: uniform, poisson, bursty
  std::size_t workers = 1;
  std::size_t depth = 1;        // calls in flight per connection the client was configured for
  std::size_t connections = 1;
  double rate = 0;              // open loop: calls/s asked for (with `stages`, their peak)
  // The stages (rate_profile::text()): an open loop's rate, a closed loop's workers (then
  // `workers` is their peak); or empty.
  std::string stages;
  double warmup_seconds = 0;
  double duration_seconds = 0;  // with `calls`: the cap
  std::uint64_t calls = 0;      // calls per repeat (load_spec::calls); 0: by duration
  std::size_t payload_bytes = 5;
  double late_after_ms = 1;
  std::string transport = "tcp";  // tcp, unix, abstract, or "remote" with --connect
  std::string endpoint;
  std::size_t server_threads = 1;
  std::string server_engine;  // the server implementation, for backends with several ("" else)
  std::size_t client_threads = 1;
  std::string server_cpus = "any";  // placement, as the affinity list given (or "any")
  std::string client_cpus = "any";
  bool server_local = true;  // false: --connect (no server CPU figures)
  std::size_t generators = 1;  // load generators whose results were merged into this point
  // What each call sent: empty, the greet call; several, a mix (each with its weight).
  std::vector<user_call> requests;
};

// "line uniform@50000/s workers=64": a point as messages name it.
std::string describe_point(const point_parameters& p);

// The part of protocol_client::counters a results file keeps, over a repeat or summed over a
// point's repeats. Replies that answered no pending call: a late one came for a call that had
// already timed out; an unknown one for no call at all. The client's connections: re-dials after
// a server closed a connection or sent it away, calls sent again because the server had not
// processed them, and failed dials.
struct client_counts {
  std::uint64_t late_replies = 0;
  std::uint64_t unknown_replies = 0;
  std::uint64_t reconnects = 0;
  std::uint64_t resent = 0;
  std::uint64_t connect_failures = 0;

  static client_counts of(const client_counters& c) {
    return {c.late_replies, c.unknown_replies, c.reconnects, c.resent, c.connect_failures};
  }
  client_counts& operator+=(const client_counts& o) {
    for (const auto& [name, count] : fields) this->*count += o.*count;
    return *this;
  }

  /// Every count with the name a results file gives it: one list that the sum, the writer and
  /// the reader all walk, so that none of them can miss a count.
  static constexpr std::pair<const char*, std::uint64_t client_counts::*> fields[] = {
      {"late_replies", &client_counts::late_replies},
      {"unknown_replies", &client_counts::unknown_replies},
      {"reconnects", &client_counts::reconnects},
      {"resent", &client_counts::resent},
      {"connect_failures", &client_counts::connect_failures}};
};

struct repeat_result {
  load_result load;
  cpu_time client_cpu;                 // over the measured window
  std::optional<cpu_time> server_cpu;  // over the measured window; nullopt for a remote server
  client_counts client;                // protocol_client::counters over the repeat
};

struct latency_quantiles {  // microseconds
  double min = 0, p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0, mean = 0;
  static latency_quantiles of(const latency_histogram& h);
};

// The CPUs each side could use, to judge whether the client saturated its share.
struct cpu_budget {
  double client_cores = 1;   // what the load generator's threads can use at most
  double machine_cores = 1;  // shared by client and server when both run here
};

// One request of a mix over a point's repeats.
struct request_summary {
  double rps_median = 0;      // its successful calls per second, the median over repeats
  latency_quantiles latency;  // medians over repeats
  outcome_counts outcomes;    // summed over repeats
  std::uint64_t late = 0;     // summed over repeats
  double share = 0;           // its part of the point's calls (every outcome), over all repeats
};

struct point_summary {
  std::size_t repeats = 0;
  double rps_median = 0, rps_min = 0, rps_max = 0;  // successful calls per second
  latency_quantiles latency;         // medians over repeats, from the intended start (open loop)
  latency_quantiles actual_latency;  // medians over repeats, from the actual send
  outcome_counts outcomes;           // summed over repeats
  std::uint64_t late = 0;            // summed over repeats
  std::uint64_t planned = 0;         // summed over repeats
  std::uint64_t issued = 0;          // summed over repeats
  client_counts client;              // summed over repeats
  double client_cores_used = 0;      // median CPU seconds per second of window
  std::optional<double> server_cores_used;
  double client_cpu_us_per_call = 0;  // median client CPU per completed call
  std::optional<double> server_cpu_us_per_call;
  bool client_bound = false;  // the generator, not the server, was likely the limit
  std::string warning;        // why client_bound (or another caution), for the report
  std::vector<request_summary> requests;  // a mix's, by request index; empty without one
};

point_summary summarize(const std::vector<repeat_result>& repeats, const cpu_budget& budget);

// A repeat's CPU per call in microseconds: `cpu_seconds` over its window divided by the calls
// completed in it (all outcomes: a failed call costs CPU too); 0 without calls.
double cpu_us_per_call(const repeat_result& r, double cpu_seconds);

// The median of some repeats' figures (the mean of the middle two for an even count; 0 for none).
double median(std::vector<double> values);

struct point_result {
  point_parameters parameters;
  std::vector<repeat_result> repeats;
  point_summary summary;
};

}  // namespace wirebench
