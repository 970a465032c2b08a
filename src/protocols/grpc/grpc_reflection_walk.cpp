#include "grpc_reflection_walk.hpp"

#include <chrono>
#include <map>

#include <google/protobuf/descriptor.pb.h>

#include "grpc_import_chain.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/peer_text.hpp"

namespace wirebench::grpc_wire {
namespace {

// A service's files are a handful; a server past these is lying or broken (one that named one
// more import in every answer was asked for ever).
constexpr std::size_t most_reflected_bytes = 16u << 20;
constexpr auto reflection_deadline = std::chrono::seconds(60);

[[noreturn]] void refuse_walk(const std::string& why) { throw setting_error("reflect", why); }

}  // namespace

std::vector<std::string> walk_reflected_files(const std::string& symbol, const reflection_ask& ask) {
  std::map<std::string, std::string> files;                 // serialized, by file name
  std::map<std::string, std::vector<std::string>> imports;  // each file's, by file name
  std::size_t bytes_taken = 0;
  const auto deadline = std::chrono::steady_clock::now() + reflection_deadline;
  // Every file the answer to `value` carries goes into `files`; an error answer refuses.
  auto take = [&](bool by_symbol, const std::string& value) {
    reflection_answer answer = ask(by_symbol, value);
    if (answer.error) refuse_walk(peer_text(value) + ": " + peer_text(*answer.error));
    for (std::string& bytes : answer.files) {
      google::protobuf::FileDescriptorProto file;
      if (!file.ParseFromString(bytes)) refuse_walk("the server sent a file that is not one");
      bytes_taken += bytes.size();
      if (bytes_taken > most_reflected_bytes)
        refuse_walk("the server's files come to more than " + std::to_string(most_reflected_bytes >> 20) + " MiB");
      if (files.emplace(file.name(), std::move(bytes)).second)
        imports[file.name()].assign(file.dependency().begin(), file.dependency().end());
      if (files.size() > most_proto_files)
        refuse_walk("the server named more than " + std::to_string(most_proto_files) + " files");
    }
  };
  take(true, symbol);
  for (bool asked = true; asked;) {
    asked = false;
    std::vector<std::string> missing;
    for (const auto& [name, needs] : imports)
      for (const std::string& dependency : needs)
        if (!files.contains(dependency)) missing.push_back(dependency);
    for (const std::string& name : missing) {
      if (files.contains(name)) continue;
      if (std::chrono::steady_clock::now() > deadline)
        refuse_walk("the server's files did not all come within " + std::to_string(reflection_deadline.count()) + " s");
      take(false, name);
      if (!files.contains(name)) refuse_walk(peer_text(name) + ": the server sent no such file");
      asked = true;
    }
  }
  const auto chain = longest_import_chain(imports);
  if (!chain) refuse_walk("the server's files import each other in a circle");
  if (*chain > deepest_import_chain)
    refuse_walk("the server's files import " + std::to_string(*chain) + " deep, more than " +
           std::to_string(deepest_import_chain));
  std::vector<std::string> out;
  for (auto& [name, bytes] : files) out.push_back(std::move(bytes));
  return out;
}

}  // namespace wirebench::grpc_wire
