#include "results_output.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <utility>
#include <vector>

#include <unistd.h>

#include "error_text.hpp"
#include "wirebench/load/results_reader.hpp"
#include "wirebench/protocols/input_file.hpp"
#include "wirebench/protocols/nesting_depth.hpp"

namespace wirebench::app {

std::optional<std::vector<results_input>> read_results_files(const std::vector<std::string>& files) {
  std::vector<results_input> inputs;
  for (const auto& file : files) {
    try {
      // Bounded before it is read: a results file may come from anywhere.
      const std::string text = read_input_file(file, max_results_file_bytes, "");
      if (!nesting_within(text, max_json_nesting))
        throw std::invalid_argument(file + ": nests deeper than " + std::to_string(max_json_nesting) +
                                    " levels, which no results file does");
      inputs.push_back({file, read_results_json(text)});
    } catch (const std::invalid_argument& e) {
      std::cerr << "wirebench: " << e.what() << "\n";  // names the file itself
      return std::nullopt;
    } catch (const std::exception& e) {
      std::cerr << "wirebench: " << file << ": " << error_text(e) << "\n";
      return std::nullopt;
    }
  }
  return inputs;
}

bool write_file(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file << text;
    if (!file.flush()) {
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) == 0) return true;
  std::remove(temporary.c_str());
  return false;
}

std::string prepare_output(const std::string& path) {
  std::error_code ec;
  const auto folder = std::filesystem::path(path).parent_path();
  if (!folder.empty()) std::filesystem::create_directories(folder, ec);
  if (ec) return "cannot create " + folder.string() + ": " + ec.message();
  if (std::filesystem::is_directory(path, ec)) return "cannot write " + path + ": a directory";
  // The file is written beside itself and renamed (write_file): the folder must take new files.
  // A probe is made and removed; the file itself is not touched before there are results.
  std::string probe = (folder.empty() ? std::string(".") : folder.string()) + "/.wirebench-XXXXXX";
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return "cannot write " + path + ": " + std::strerror(errno);
  ::close(fd);
  ::unlink(probe.c_str());
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
  if (run.points.empty()) {
    // Nothing measured: a results file already there is worth more than an empty one.
    for (const auto* path : {&json_path, &csv_path})
      if (!path->empty()) std::cerr << "wirebench: no results: " << *path << " left as it was\n";
    return true;
  }
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
