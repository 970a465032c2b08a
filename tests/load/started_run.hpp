#pragma once
// The start of a run record as `wirebench run` writes one, for the results files' tests.
#include <string>
#include <utility>
#include <vector>

#include "wirebench/load/machine_info.hpp"
#include "wirebench/load/results_file.hpp"

namespace wirebench::test {

// A run with its command line, start time (UTC, ISO 8601), this machine and `libraries`; no points.
inline run_record started_run(std::string command_line, std::string started_at,
                              std::vector<std::pair<std::string, std::string>> libraries) {
  run_record run;
  run.command_line = std::move(command_line);
  run.started_at = std::move(started_at);
  run.machine = describe_machine();
  run.libraries = std::move(libraries);
  return run;
}

}  // namespace wirebench::test
