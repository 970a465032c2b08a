#pragma once
// A run's results as files: JSON (everything: machine, library versions, every parameter, each
// repeat's figures and latency histograms, the summary; results_reader.hpp reads it back) and
// CSV (one row per point, the summary), for scripts/plot and spreadsheets alike.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "wirebench/load/machine_info.hpp"
#include "wirebench/load/point_summary.hpp"

namespace wirebench {

// One generator's results file that a merged run was made of.
struct merged_input {
  std::string file;
  std::string command_line;
  std::string started_at;
  std::string hostname;
};

// A --find-max-rate search of one protocol at one worker count: each step is a point of the run.
struct knee_step {
  double rate = 0;           // calls/s offered
  std::string violation;     // why it missed the target ("" when it met it)
  std::size_t point = 0;     // its point in run_record::points
};
struct knee_result {
  std::string protocol;
  std::string load;          // the open loop's arrivals (uniform, poisson, bursty)
  std::size_t workers = 0;   // most calls in flight
  std::string slo;           // the target, as given
  double max_rate_met = 0;   // the highest rate that met it (0: none did)
  double lowest_missed = 0;  // the lowest rate that missed it (0: none did, up to --max-rate)
  std::string missed_because;  // why that step missed
  std::string stopped_because; // "" when the search converged (or met --max-rate); else why not
  std::vector<knee_step> steps;  // in the order run
};

// `wirebench run --scenario echo` (article 003's table): one server x client x address x method
// under one load, its time per call repeat by repeat. Measured by our generator (`point` is then
// its point in run_record::points) or by a peer's own client timing itself, as the article's
// echo-go does (connect-go's: no point, only its means and counts).
struct echo_cell {
  std::string server;   // "ours", "connect-go", "grpc-go"
  std::string client;   // a protocol of ours ("grpc", "connect", ...) or "connect-go/connect", ...
  std::string address;  // the endpoint: "unix:@NAME", "tcp://127.0.0.1:PORT"
  std::string method;   // Get, Expand, Collect, Update
  std::size_t workers = 1;  // 1: one caller, one call after another (the article's); else a closed loop
  // Per repeat: the time per call a caller sees, workers x window / successful calls (Little's
  // law; with one caller, the article's elapsed / n).
  std::vector<double> mean_us;
  std::vector<double> calls_per_second;  // per repeat, successful calls
  std::uint64_t calls = 0;               // completed, summed over repeats
  std::uint64_t failed = 0;              // of those, not successful
  std::optional<std::size_t> point;
  std::string skipped;  // why the cell has no figure ("grpc-go serves gRPC only"), else ""
};

struct run_record {
  std::string command_line;
  std::string started_at;  // UTC, ISO 8601
  machine_info machine;    // a merged run: the first input's
  std::vector<std::pair<std::string, std::string>> libraries;
  std::vector<point_result> points;
  std::vector<merged_input> merged_from;  // empty unless `wirebench merge` made this run
  std::vector<knee_result> knees;         // empty unless the run searched (--find-max-rate)
  std::vector<echo_cell> echo;            // empty unless --scenario echo
  // Why the run ended before all its points (interrupted by SIGINT, a client that could not be
  // closed), or empty: then every point asked for is here (or named among the failures).
  std::string incomplete;
};

// The JSON format written: version 2 carries each repeat's whole latency histograms; version 3
// a point's requests as a list (a mix's, each with its own results beside the point's).
inline constexpr std::string_view results_format = "wirebench-results-3";

std::string results_json(const run_record& run);
std::string results_csv(const run_record& run);

// Which columns results_csv writes, in order (the tests and scripts/plot read them by name).
const std::vector<std::string>& results_csv_columns();

}  // namespace wirebench
