#pragma once
// The wirebench program run by a test as a user runs it: its exit status, what it printed (stdout
// and stderr together) and, when asked, the results file it wrote.
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support/child_process.hpp"
#include "test_paths.h"

namespace wirebench::test {

struct cli_result {
  int status = -1;
  std::string out;
  nlohmann::json results;  // the --out JSON, when the run wrote it (discarded if unreadable)
};

// `wirebench ARGS` through the shell; with `json_path`, the results file it wrote there.
inline cli_result run_cli(const std::string& args, const std::string& json_path = {}) {
  cli_result r;
  r.out = run_shell(std::string(WIREBENCH_CLI) + " " + args + " 2>&1", &r.status);
  if (!json_path.empty()) {
    std::ifstream file(json_path);
    r.results = nlohmann::json::parse(file, nullptr, /*allow_exceptions=*/false);
  }
  return r;
}

}  // namespace wirebench::test
