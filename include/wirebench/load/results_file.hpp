#pragma once
// A run's results as files: JSON (everything: machine, library versions, every parameter, each
// repeat's figures and latency histograms, the summary; results_reader.hpp reads it back) and
// CSV (one row per point, the summary), for scripts/plot and spreadsheets alike.
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

struct run_record {
  std::string command_line;
  std::string started_at;  // UTC, ISO 8601
  machine_info machine;    // a merged run: the first input's
  std::vector<std::pair<std::string, std::string>> libraries;
  std::vector<point_result> points;
  std::vector<merged_input> merged_from;  // empty unless `wirebench merge` made this run
};

// The JSON format written: version 2 carries each repeat's whole latency histograms.
inline constexpr std::string_view results_format = "wirebench-results-2";

std::string results_json(const run_record& run);
std::string results_csv(const run_record& run);

// Which columns results_csv writes, in order (the tests and scripts/plot read them by name).
const std::vector<std::string>& results_csv_columns();

}  // namespace wirebench
