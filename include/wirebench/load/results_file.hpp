#pragma once
// A run's results as files: JSON (everything: machine, library versions, every parameter, each
// repeat's figures and the summary) and CSV (one row per point, the summary), for scripts/plot
// and spreadsheets alike.
#include <string>
#include <utility>
#include <vector>

#include "wirebench/load/machine_info.hpp"
#include "wirebench/load/point_summary.hpp"

namespace wirebench {

struct run_record {
  std::string command_line;
  std::string started_at;  // UTC, ISO 8601
  machine_info machine;
  std::vector<std::pair<std::string, std::string>> libraries;
  std::vector<point_result> points;
};

std::string results_json(const run_record& run);
std::string results_csv(const run_record& run);

// Which columns results_csv writes, in order (the tests and scripts/plot read them by name).
const std::vector<std::string>& results_csv_columns();

}  // namespace wirebench
