#pragma once
// How deep a set of .proto files imports, judged before protobuf builds them: its DescriptorPool
// builds a file's imports by recursion, one level per import, so a chain of 10 000 files (300 KB
// from a server's reflection, or on disk) ended the process on its stack. Start-up code.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wirebench::grpc_wire {

// The most files one user call's .proto may come to, imports and all, and the deepest chain of
// imports: far past any real service's (a handful of files, a few levels), far below a stack.
inline constexpr std::size_t most_proto_files = 1000;
inline constexpr std::size_t deepest_import_chain = 64;

// The longest chain of imports among `files` (a file's name -> its imports' names; an import not
// among them counts as a file without imports), walked without recursion; nullopt when the
// imports go round (a file that imports itself by way of others).
std::optional<std::size_t> longest_import_chain(const std::map<std::string, std::vector<std::string>>& files);

}  // namespace wirebench::grpc_wire
