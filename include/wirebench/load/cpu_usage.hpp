#pragma once
// CPU time spent by the load generator and by the server, so that results read as requests per
// core and a run can tell when the client, not the server, was the bottleneck.
#include <sys/types.h>

#include <optional>
#include <string_view>
#include <vector>

namespace wirebench {

struct cpu_time {
  double user_seconds = 0;
  double system_seconds = 0;
  double total() const { return user_seconds + system_seconds; }
  friend cpu_time operator-(const cpu_time& a, const cpu_time& b) {
    return {a.user_seconds - b.user_seconds, a.system_seconds - b.system_seconds};
  }
};

// This process, every thread (getrusage RUSAGE_SELF; microsecond resolution).
cpu_time process_cpu_time();

// A process and all its descendants (a server may fork its own, as redis-server's backend does),
// in two steps: the tree found once (a scan of /proc, milliseconds; empty when `root` is gone),
// then its processes' CPU read in microseconds, so that a sample taken as a burst arrives is taken
// before it is served. Each one's total from its CPU clock (nanoseconds), split into user and
// system by the clock-tick counts of /proc/<pid>/stat: the sum is exact, each part only as fine
// as a tick, so over a short window one of them may even step back a little.
// processes_cpu_time sums those still there; nullopt when none is.
std::vector<pid_t> process_tree(pid_t root);
std::optional<cpu_time> processes_cpu_time(const std::vector<pid_t>& pids);

// The utime and stime fields of one /proc/<pid>/stat line, in clock ticks, and the parent pid.
// Sans-IO so the parsing is tested (the command name may hold spaces and parentheses).
struct proc_stat_fields {
  pid_t parent = 0;
  unsigned long long user_ticks = 0;
  unsigned long long system_ticks = 0;
};
std::optional<proc_stat_fields> parse_proc_stat(std::string_view line);

}  // namespace wirebench
