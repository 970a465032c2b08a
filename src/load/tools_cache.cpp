#include "wirebench/load/tools_cache.hpp"

#include <cstdlib>

#include <unistd.h>

namespace wirebench {

std::string tools_cache() {
  if (const char* tools = std::getenv("WIREBENCH_TOOLS")) return tools;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME")) return std::string(xdg) + "/wirebench";
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.cache/wirebench";
  return {};
}

std::string cached_tool(const std::string& name, const std::string& version) {
  const std::string cache = tools_cache();
  if (cache.empty()) return {};
  const std::string built = cache + "/" + name + "-" + version + "/" + name;
  return ::access(built.c_str(), X_OK) == 0 ? built : std::string();
}

}  // namespace wirebench
