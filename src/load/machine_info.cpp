#include "wirebench/load/machine_info.hpp"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>

namespace wirebench {
namespace {

// The value of the first "key<sep>value" line of a file, trimmed of spaces, tabs and quotes.
std::string first_value(const char* path, std::string_view key, char separator) {
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    if (!line.starts_with(key)) continue;
    const auto at = line.find(separator);
    if (at == std::string::npos) continue;
    std::string value = line.substr(at + 1);
    const auto first = value.find_first_not_of(" \t\"");
    const auto last = value.find_last_not_of(" \t\"");
    return first == std::string::npos ? std::string() : value.substr(first, last - first + 1);
  }
  return {};
}

}  // namespace

machine_info describe_machine() {
  machine_info m;
  m.cpu_model = first_value("/proc/cpuinfo", "model name", ':');
  if (m.cpu_model.empty()) m.cpu_model = "unknown";
  m.online_cpus = static_cast<unsigned>(sysconf(_SC_NPROCESSORS_ONLN));
  cpu_set_t mask;
  CPU_ZERO(&mask);
  m.available_cpus = sched_getaffinity(0, sizeof mask, &mask) == 0
                         ? static_cast<unsigned>(CPU_COUNT(&mask))
                         : m.online_cpus;
  utsname u{};
  if (uname(&u) == 0) {
    m.kernel = std::string(u.sysname) + " " + u.release + " " + u.machine;
    m.hostname = u.nodename;
  }
  m.os = first_value("/etc/os-release", "PRETTY_NAME", '=');
  m.compiler = __VERSION__;
#ifdef NDEBUG
  m.optimized = true;
#endif
  return m;
}

}  // namespace wirebench
