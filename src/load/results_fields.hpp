#pragma once
// Fields as a results file names them: a list that results_file.cpp writes and results_reader.cpp
// reads, so that the two cannot disagree on a field (the client counts' list is
// client_counts::fields).
#include "wirebench/load/point_summary.hpp"

namespace wirebench {

// Calls `field(name, member)` for each plain field of `p` (a point_parameters, const or not). The
// fields with a rule of their own (requests, stages and calls: null when not used) are not here.
template <class Parameters, class Field>
void each_plain_parameter(Parameters& p, Field&& field) {
  field("protocol", p.protocol);
  field("load", p.load);
  field("workers", p.workers);
  field("depth", p.depth);
  field("connections", p.connections);
  field("rate", p.rate);
  field("warmup_seconds", p.warmup_seconds);
  field("duration_seconds", p.duration_seconds);
  field("payload_bytes", p.payload_bytes);
  field("late_after_ms", p.late_after_ms);
  field("transport", p.transport);
  field("endpoint", p.endpoint);
  field("server_threads", p.server_threads);
  field("server_engine", p.server_engine);
  field("client_threads", p.client_threads);
  field("server_cpus", p.server_cpus);
  field("client_cpus", p.client_cpus);
  field("server_local", p.server_local);
  field("generators", p.generators);
}

}  // namespace wirebench
