#pragma once
// Results of several load generators that loaded one server at the same time, as one run: what
// `wirebench merge` does, so that a server too fast for one generator machine can be measured
// with several (scripts/multihost, deploy/kubernetes).
//
// Points are matched by protocol, load, shape (workers, depth, connections, rate, client
// threads), payload and request; repeat k of every file is merged with repeat k of the others.
// Per repeat: latency histograms and outcome counts are added (percentiles are then recomputed
// from the merged histogram, never averaged), calls per second are the sum of each generator's
// rate over its own window, CPU is summed, and the window is the one all generators shared.
// Start-up code: inputs that cannot be merged throw, with a one-line reason.
#include <string>
#include <vector>

#include "wirebench/load/results_file.hpp"

namespace wirebench {

struct results_input {
  std::string file;  // as given on the command line, for messages and merged_from
  run_record run;
};

/// The merged run. Throws std::runtime_error when there are fewer than two inputs, a point of one
/// has no match in another, the repeats or durations differ, an input is another one again, or
/// the measured windows of a repeat do not overlap (the generators did not run at the same time).
run_record merge_results(const std::vector<results_input>& inputs);

}  // namespace wirebench
