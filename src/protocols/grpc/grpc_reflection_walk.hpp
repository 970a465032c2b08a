#pragma once
// The walk both reflection clients make (ours, grpc_reflection_fetch.cpp; grpc++'s,
// ../grpcpp/grpc_reflection_client.cpp): the file that defines a service, then every file it
// imports that the server did not send with it, asked for by name until none is missing. Bounded,
// for the server may lie: at most most_proto_files files and 16 MiB in all, within 60 s, and no
// chain of imports deeper than deepest_import_chain (grpc_import_chain.hpp), checked before
// protobuf builds them. Start-up code; each refusal is a setting_error("reflect") whose text
// shows what came from the server escaped and cut (peer_text.hpp).
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace wirebench::grpc_wire {

/// A server's answer to one request: its error message, or the files it carried (serialized
/// FileDescriptorProtos).
struct reflection_answer {
  std::optional<std::string> error;
  std::vector<std::string> files;
};

/// Asks the server for the file containing `value` (a symbol: `by_symbol`) or named `value`.
using reflection_ask = std::function<reflection_answer(bool by_symbol, const std::string& value)>;

/// The files `symbol` needs (serialized), from `ask`.
std::vector<std::string> walk_reflected_files(const std::string& symbol, const reflection_ask& ask);

}  // namespace wirebench::grpc_wire
