// wirebench report: results files as one page to open in a browser (report_data.hpp,
// report_page.hpp). Two files are also compared, the first as before, the second as after.
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "report_data.hpp"
#include "report_page.hpp"
#include "results_output.hpp"

namespace wirebench::app {
namespace {

struct report_options {
  std::vector<std::string> inputs;
  std::string out;
  std::string title;
};

// "results.html" for "results.json": where the page goes when -o is not given.
std::string page_path_for(const std::string& results) {
  std::filesystem::path p(results);
  p.replace_extension(".html");
  return p.string();
}

}  // namespace

command_runner add_report_command(CLI::App& app) {
  auto o = std::make_shared<report_options>();
  auto* cmd = app.add_subcommand(
      "report",
      "Results files as one HTML page that opens offline: a summary of every point, each "
      "point's latency percentile spectrum and timeline, outcomes, knee searches and sweeps; "
      "given two files, the first compared with the second.\n"
      "Example:\n  wirebench report results.json -o report.html");
  cmd->add_option("files", o->inputs, "Results files written by `wirebench run -o` or `merge -o`")
      ->required()
      ->check(CLI::ExistingFile);
  cmd->add_option("-o,--out", o->out, "Write the page here (default: the first file's, .html)");
  cmd->add_option("--title", o->title, "The page's title (default: the files' names)");

  return [o]() -> int {
    if (o->out.empty()) o->out = page_path_for(o->inputs.front());
    if (auto problem = prepare_output(o->out); !problem.empty()) return usage_error(problem);
    auto read = read_results_files(o->inputs);
    if (!read) return 1;
    std::vector<results_input>& inputs = *read;
    std::string title = o->title;
    if (title.empty()) {
      title = "wirebench report:";
      for (const auto& file : o->inputs) title += " " + std::filesystem::path(file).filename().string();
    }
    if (!write_file(o->out, report_page(report_data(inputs), title))) {
      std::cerr << "wirebench: cannot write " << o->out << "\n";
      return 1;
    }
    std::cerr << "wirebench: report in " << o->out << "\n";
    return 0;
  };
}

}  // namespace wirebench::app
