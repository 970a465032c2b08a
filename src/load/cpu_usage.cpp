#include "wirebench/load/cpu_usage.hpp"

#include <dirent.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <charconv>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace wirebench {

cpu_time process_cpu_time() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
  };
  return {seconds(usage.ru_utime), seconds(usage.ru_stime)};
}

std::optional<proc_stat_fields> parse_proc_stat(std::string_view line) {
  // "pid (comm) state ppid ... utime(14) stime(15) ...": comm may contain anything, so the
  // fields are counted from the last ')'.
  const auto close = line.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::vector<std::string_view> fields;  // fields[0] is field 3 (state)
  std::size_t at = close + 1;
  while (at < line.size() && fields.size() < 13) {
    while (at < line.size() && line[at] == ' ') ++at;
    const auto end = std::min(line.find(' ', at), line.size());
    if (end > at) fields.push_back(line.substr(at, end - at));
    at = end;
  }
  if (fields.size() < 13) return std::nullopt;
  auto number = [](std::string_view text, auto& out) {
    const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
  };
  proc_stat_fields f;
  if (!number(fields[1], f.parent) || !number(fields[11], f.user_ticks) ||
      !number(fields[12], f.system_ticks))
    return std::nullopt;
  return f;
}

namespace {

// A process's CPU time (user + system, every thread, live or exited) in nanoseconds from its CPU
// clock; nullopt when it is gone.
std::optional<double> cpu_clock_seconds(pid_t pid) {
  clockid_t clock{};
  timespec now{};
  if (clock_getcpuclockid(pid, &clock) != 0 || clock_gettime(clock, &now) != 0) return std::nullopt;
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

}  // namespace

std::vector<pid_t> process_tree(pid_t root) {
  std::map<pid_t, pid_t> parents;
  if (DIR* proc = opendir("/proc")) {
    while (dirent* entry = readdir(proc)) {
      pid_t pid = 0;
      const std::string_view name = entry->d_name;
      if (std::from_chars(name.data(), name.data() + name.size(), pid).ec != std::errc()) continue;
      std::ifstream file("/proc/" + std::string(name) + "/stat");
      std::string line;
      if (!std::getline(file, line)) continue;  // exited meanwhile
      if (auto f = parse_proc_stat(line)) parents[pid] = f->parent;
    }
    closedir(proc);
  }
  std::vector<pid_t> tree;
  if (!parents.contains(root)) return tree;
  // Descendants: walk each process's parent chain up to the root (the table is small).
  for (const auto& [pid, parent] : parents) {
    pid_t at = pid;
    for (int hops = 0; hops < 64 && at != root && parents.contains(at); ++hops) at = parents[at];
    if (at == root) tree.push_back(pid);
  }
  return tree;
}

std::optional<cpu_time> processes_cpu_time(const std::vector<pid_t>& pids) {
  // /proc's utime and stime count whole clock ticks (10 ms), too coarse for a short window: 300
  // calls would read 0 or 33 us each. So each process's CPU clock (nanoseconds) gives its total,
  // and the ticks only split it into user and system (all user while both are still 0).
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  cpu_time sum;
  bool any = false;
  for (const pid_t pid : pids) {
    std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(file, line)) continue;  // exited
    const auto f = parse_proc_stat(line);
    if (!f) continue;
    const double user = static_cast<double>(f->user_ticks) / tick;
    const double system = static_cast<double>(f->system_ticks) / tick;
    const double total = cpu_clock_seconds(pid).value_or(user + system);
    const double user_share = user + system > 0 ? user / (user + system) : 1.0;
    sum.user_seconds += total * user_share;
    sum.system_seconds += total * (1 - user_share);
    any = true;
  }
  if (!any) return std::nullopt;
  return sum;
}

}  // namespace wirebench
