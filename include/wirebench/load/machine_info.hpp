#pragma once
// The machine a result was measured on, recorded with every result: a figure without its CPU,
// core count and kernel cannot be compared with anything.
#include <string>

namespace wirebench {

struct machine_info {
  std::string cpu_model;    // /proc/cpuinfo "model name" (or "unknown")
  unsigned online_cpus = 0;     // CPUs the kernel has online
  unsigned available_cpus = 0;  // CPUs this process may run on (its affinity mask)
  std::string kernel;       // uname: sysname release machine
  std::string os;           // /etc/os-release PRETTY_NAME
  std::string hostname;
  std::string compiler;     // the compiler that built wirebench
  bool optimized = false;   // built with NDEBUG (a Release-like build)
};

machine_info describe_machine();

}  // namespace wirebench
