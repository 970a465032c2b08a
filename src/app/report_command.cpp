// wirebench report: results files as one page to open in a browser (report_data.hpp,
// report_page.hpp). Two files are also compared, the first as before, the second as after.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "report_data.hpp"
#include "report_page.hpp"
#include "results_output.hpp"
#include "wirebench/protocols/input_file.hpp"
#include "wirebench/protocols/nesting_depth.hpp"

namespace wirebench::app {
namespace {

struct report_options {
  std::vector<std::string> inputs;
  std::string out;
  std::string title;
};

// Whether `path` holds Google Benchmark's JSON (--benchmark_out): its cases are drawn too, as
// scripts/bench's sweeps. Anything else is taken for a results file (and refused if it is not).
bool is_google_benchmark(const std::string& path, nlohmann::json& doc) {
  std::string text;
  try {
    text = read_input_file(path, max_results_file_bytes, "");
  } catch (const std::invalid_argument&) {
    return false;  // the results reader says why, naming the file
  }
  if (!nesting_within(text, max_json_nesting)) return false;
  doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  return doc.is_object() && doc.contains("benchmarks") && doc["benchmarks"].is_array();
}

// "results.html" for "results.json": where the page goes when -o is not given.
std::string page_path_for(const std::string& results) {
  std::filesystem::path p(results);
  p.replace_extension(".html");
  return p.string();
}

}  // namespace

command_runner add_report_command(CLI::App& app) {
  auto [cmd, o] = add_command<report_options>(
      app, "report",
      "Results files as one HTML page that opens offline: a summary of every point, each "
      "point's latency percentile spectrum and timeline, outcomes, knee searches and sweeps; "
      "given two results files, the first compared with the second. Google Benchmark JSON "
      "files (scripts/bench's) are drawn too.",
      {"wirebench report results.json -o report.html"});
  add_input_files_option(*cmd, o->inputs,
                         "Results files written by `wirebench run -o` or `merge -o`; Google "
                         "Benchmark --benchmark_out files");
  cmd->add_option("-o,--out", o->out, "Write the page here (default: the first file's, .html; - : to stdout)");
  cmd->add_option("--title", o->title, "The page's title (default: the files' names)");

  return [o = o]() -> int {
    if (o->out.empty()) o->out = page_path_for(o->inputs.front());
    if (auto problem = prepare_output(o->out); !problem.empty()) return usage_error(problem);
    std::vector<std::string> results;
    std::vector<benchmark_input> benchmarks;
    for (const auto& file : o->inputs) {
      nlohmann::json doc;
      if (is_google_benchmark(file, doc)) {
        benchmarks.push_back({file, std::move(doc)});
      } else {
        results.push_back(file);
      }
    }
    auto read = read_results_files(results);
    if (!read) return 1;
    std::vector<results_input>& inputs = *read;
    std::string title = o->title;
    if (title.empty()) {
      title = "wirebench report:";
      for (const auto& file : o->inputs) title += " " + std::filesystem::path(file).filename().string();
    }
    if (!write_file(o->out, report_page(report_data(inputs, benchmarks), title))) {
      std::cerr << "wirebench: cannot write " << o->out << "\n";
      return 1;
    }
    std::cerr << "wirebench: report in " << (o->out == "-" ? "stdout" : o->out) << "\n";
    return 0;
  };
}

}  // namespace wirebench::app
