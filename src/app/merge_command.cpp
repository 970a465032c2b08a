// wirebench merge: the results of several generators that loaded one server at the same time
// (scripts/multihost, deploy/kubernetes), as one run: the table, JSON and CSV.
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "error_text.hpp"
#include "results_output.hpp"
#include "run_plan.hpp"
#include "wirebench/load/results_merge.hpp"

namespace wirebench::app {
namespace {

struct merge_options {
  std::vector<std::string> inputs;
  std::string out_json;
  std::string out_csv;
};

}  // namespace

command_runner add_merge_command(CLI::App& app) {
  auto [cmd, o] = add_command<merge_options>(
      app, "merge",
      "Merge the results files of generators that ran at the same time against one server: "
      "latency histograms and outcomes added, percentiles recomputed, rates summed.",
      {"wirebench merge gen-1.json gen-2.json -o all.json"});
  add_input_files_option(*cmd, o->inputs, "Results files written by `wirebench run -o` (two or more)");
  cmd->add_option("-o,--out", o->out_json, "Write the merged results as JSON here (and CSV beside it; - : to stdout)");
  cmd->add_option("--csv", o->out_csv, "Write the CSV here instead (- : to stdout)");

  return [o = o]() -> int {
    if (auto problem = prepare_results_outputs(o->out_json, o->out_csv); !problem.empty())
      return usage_error(problem);
    auto read = read_results_files(o->inputs);
    if (!read) return 1;
    std::vector<results_input>& inputs = *read;
    run_record merged;
    try {
      merged = merge_results(inputs);
    } catch (const std::exception& e) {
      std::cerr << "wirebench: cannot merge: " << error_text(e) << "\n";
      return 1;
    }
    std::ostream& table = table_stream(o->out_json, o->out_csv);
    print_table(table, merged);
    table.flush();  // before stderr's results line, as in run
    return write_results(merged, o->out_json, o->out_csv) ? 0 : 1;
  };
}

}  // namespace wirebench::app
