#pragma once
// A gRPC user call's request metadata (`-H 'name: value'`, doc/PROTOCOL-HTTP2.md's Custom-Metadata),
// checked once at start-up for both of our gRPC clients (ours and grpc++'s).
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "grpc_call.hpp"
#include "wirebench/protocols/user_call.hpp"

namespace wirebench::grpc_wire {

// The call's metadata, names lowercased (HTTP/2 sends them so), values as given. Throws
// setting_error("header") when a name is not a metadata key (letters, digits, '-', '_', '.'),
// is one the client sets itself (a pseudo-header, content-type, te, user-agent, grpc-*), or a
// value of a key other than a "-bin" one is not printable ASCII.
std::vector<std::pair<std::string, std::string>> checked_metadata(const grpc_call& call);

// A value as it goes on the wire: a "-bin" key's value base64-encoded (gRPC's binary metadata;
// grpc++ does this itself), any other as it is.
std::string wire_value(std::string_view name, std::string_view value);

}  // namespace wirebench::grpc_wire
