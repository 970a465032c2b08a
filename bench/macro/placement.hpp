#pragma once
// Where the benchmark's threads run. On a 2-vCPU machine a blocking round trip costs ~12 µs with
// both ends on one vCPU and ~50 µs across vCPUs, and unpinned runs land in either mode, so the
// placement is a knob (environment variables) and is recorded with every result:
//   WIREBENCH_SERVER_CPUS=0  WIREBENCH_CLIENT_CPUS=0   (lists like 0,1 or 0-1; unset: no pinning)
//   WIREBENCH_SERVER_THREADS=2  WIREBENCH_CLIENT_THREADS=1
#include <string>
#include <vector>

namespace wirebench::bench {

struct placement {
  std::vector<int> server_cpus;
  std::vector<int> client_cpus;
  std::size_t server_threads = 2;
  std::size_t client_threads = 1;

  static placement from_env();  // throws std::invalid_argument on a malformed variable
  static std::string describe(const std::vector<int>& cpus);  // "0,1" or "any"
};

}  // namespace wirebench::bench
