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

#include <sys/stat.h>
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

namespace {

// Where a results path's bytes go: "-" is stdout; a symlink is followed to what it names (the
// link stays a link); a path that is there and not a regular file (a device, a FIFO,
// /dev/stdout) is written through, never replaced.
struct output_place {
  bool standard_output = false;
  bool write_through = false;
  std::filesystem::path file;  // the regular file to replace, or the one to write through
};

output_place place_of(const std::string& path) {
  if (path == "-") return {.standard_output = true, .write_through = false, .file = {}};
  std::error_code ec;
  // The kernel's view first (it follows /proc's links, /dev/stdout to a pipe, as open(2) does).
  const auto status = std::filesystem::status(path, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    return {.standard_output = false, .write_through = true, .file = path};
  // A regular file, or none yet: the file a chain of links ends at is the one replaced (to a
  // bound: a loop is left to fail at open).
  std::filesystem::path file = path;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(file, ec); ++hops) {
    const std::filesystem::path target = std::filesystem::read_symlink(file, ec);
    if (ec) break;
    file = target.is_absolute() ? target : file.parent_path() / target;
  }
  return {.standard_output = false, .write_through = false, .file = file};
}

// Whether `path` is where stdout goes (--out /dev/stdout): the table then goes to stderr.
bool is_standard_output(const std::string& path) {
  if (path == "-") return true;
  struct stat out{}, file{};
  return ::fstat(STDOUT_FILENO, &out) == 0 && ::stat(path.c_str(), &file) == 0 && out.st_dev == file.st_dev &&
         out.st_ino == file.st_ino;
}

}  // namespace

bool write_file(const std::string& path, const std::string& text) {
  const output_place place = place_of(path);
  if (place.standard_output) {
    std::cout << text;
    return static_cast<bool>(std::cout.flush());
  }
  if (place.write_through) {
    std::ofstream out(place.file, std::ios::binary | std::ios::out);
    out << text;
    return static_cast<bool>(out.flush());
  }
  const std::string temporary = place.file.string() + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file << text;
    if (!file.flush()) {
      std::remove(temporary.c_str());
      return false;
    }
  }
  if (std::rename(temporary.c_str(), place.file.c_str()) == 0) return true;
  std::remove(temporary.c_str());
  return false;
}

std::string prepare_output(const std::string& path) {
  const output_place place = place_of(path);
  if (place.standard_output) return {};
  if (place.write_through) {
    if (::access(place.file.c_str(), W_OK) != 0) return "cannot write " + path + ": " + std::strerror(errno);
    return {};
  }
  std::error_code ec;
  const auto folder = place.file.parent_path();
  if (!folder.empty()) std::filesystem::create_directories(folder, ec);
  if (ec) return "cannot create " + folder.string() + ": " + ec.message();
  if (std::filesystem::is_directory(place.file, ec)) return "cannot write " + path + ": a directory";
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
  if (const output_place place = place_of(json_path); place.standard_output || place.write_through) return {};
  const auto dot = json_path.rfind('.');
  const auto slash = json_path.rfind('/');
  const bool has_extension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (has_extension ? json_path.substr(0, dot) : json_path) + ".csv";
}

std::string prepare_results_outputs(const std::string& json_path, std::string& csv_path) {
  if (!json_path.empty() && csv_path.empty()) csv_path = csv_path_for(json_path);
  if (json_path == "-" && csv_path == "-") return "--out - and --csv -: only one of them can go to stdout";
  for (const std::string& path : {json_path, csv_path})
    if (!path.empty())
      if (auto problem = prepare_output(path); !problem.empty()) return problem;
  return {};
}

std::ostream& table_stream(const std::string& json_path, const std::string& csv_path) {
  return is_standard_output(json_path) || is_standard_output(csv_path) ? std::cerr : std::cout;
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
  for (std::string& path : written)
    if (path == "-") path = "stdout";
  if (written.size() == 2)
    std::cerr << "wirebench: results in " << written[0] << " and " << written[1] << "\n";
  else if (written.size() == 1)
    std::cerr << "wirebench: results in " << written[0] << "\n";
  return ok;
}

}  // namespace wirebench::app
