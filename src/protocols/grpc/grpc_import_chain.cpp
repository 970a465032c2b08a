#include "grpc_import_chain.hpp"

#include <algorithm>

namespace wirebench::grpc_wire {

std::optional<std::size_t> longest_import_chain(const std::map<std::string, std::vector<std::string>>& files) {
  std::map<std::string, std::size_t> depth;  // done: the chain below a file, itself counted
  std::map<std::string, bool> on_path;
  std::size_t longest = 0;
  for (const auto& [root, unused] : files) {
    if (depth.contains(root)) continue;
    std::vector<std::pair<std::string, std::size_t>> stack{{root, 0}};  // a file, its next import
    on_path[root] = true;
    while (!stack.empty()) {
      auto& [name, next] = stack.back();
      const auto it = files.find(name);
      const std::vector<std::string> none;
      const auto& imports = it == files.end() ? none : it->second;
      if (next < imports.size()) {
        const std::string& child = imports[next++];
        if (on_path[child]) return std::nullopt;
        if (!depth.contains(child)) {
          on_path[child] = true;
          stack.emplace_back(child, 0);
        }
        continue;
      }
      std::size_t below = 0;
      for (const auto& child : imports) below = std::max(below, depth[child]);
      depth[name] = below + 1;
      longest = std::max(longest, below + 1);
      on_path[name] = false;
      stack.pop_back();
    }
  }
  return longest;
}

}  // namespace wirebench::grpc_wire
