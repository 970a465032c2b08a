#include "results_output.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <utility>
#include <vector>

namespace wirebench::app {
namespace {

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  return static_cast<bool>(file.flush());
}

}  // namespace

std::string prepare_output(const std::string& path) {
  std::error_code ec;
  const auto folder = std::filesystem::path(path).parent_path();
  if (!folder.empty()) std::filesystem::create_directories(folder, ec);
  if (ec) return "cannot create " + folder.string() + ": " + ec.message();
  std::ofstream probe(path, std::ios::app);
  if (!probe) return "cannot write " + path + ": " + std::strerror(errno);
  return {};
}

std::string csv_path_for(const std::string& json_path) {
  const auto dot = json_path.rfind('.');
  const auto slash = json_path.rfind('/');
  const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (has_extension ? json_path.substr(0, dot) : json_path) + ".csv";
}

bool write_results(const run_record& run, const std::string& json_path,
                   const std::string& csv_path) {
  bool ok = true;
  std::vector<std::string> written;
  using render = std::string (*)(const run_record&);
  for (const auto& [path, format] : {std::pair<std::string, render>{json_path, results_json},
                                     std::pair<std::string, render>{csv_path, results_csv}}) {
    if (path.empty()) continue;  // nothing asked for: nothing rendered
    if (write_file(path, format(run))) {
      written.push_back(path);
    } else {
      std::cerr << "wirebench: cannot write " << path << "\n";
      ok = false;
    }
  }
  if (written.size() == 2)
    std::cerr << "wirebench: results in " << written[0] << " and " << written[1] << "\n";
  else if (written.size() == 1)
    std::cerr << "wirebench: results in " << written[0] << "\n";
  return ok;
}

}  // namespace wirebench::app
