#include "macro/placement.hpp"

#include <cstdlib>
#include <stdexcept>

#include "wirebench/transport/io_pool.hpp"

namespace wirebench::bench {
namespace {

std::size_t count_from_env(const char* name, std::size_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 1 || n > 1024)
    throw std::invalid_argument(std::string(name) + "='" + v + "': expected a count from 1 to 1024");
  return static_cast<std::size_t>(n);
}

}  // namespace

placement placement::from_env() {
  placement p;
  if (const char* v = std::getenv("WIREBENCH_SERVER_CPUS"); v && *v) p.server_cpus = parse_cpu_list(v);
  if (const char* v = std::getenv("WIREBENCH_CLIENT_CPUS"); v && *v) p.client_cpus = parse_cpu_list(v);
  p.server_threads = count_from_env("WIREBENCH_SERVER_THREADS", p.server_threads);
  p.client_threads = count_from_env("WIREBENCH_CLIENT_THREADS", p.client_threads);
  return p;
}

std::string placement::describe(const std::vector<int>& cpus) {
  if (cpus.empty()) return "any";
  std::string out;
  for (int c : cpus) out += (out.empty() ? "" : ",") + std::to_string(c);
  return out;
}

}  // namespace wirebench::bench
