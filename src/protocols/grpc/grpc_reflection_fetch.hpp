#pragma once
// Our gRPC client's side of server reflection (grpc.reflection.v1alpha, which grpc++, grpc-go,
// grpcio and our server all serve): the files that define a service, and those they import, as
// the server describes them, for --reflect user calls. Asked over our own HTTP/2 client: each
// ServerReflectionRequest is one stream of ServerReflectionInfo carrying that one message, whose
// one answer comes before the server ends the stream (the unary codec's raw calls).
#include <string>
#include <vector>

#include "grpc_call.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::grpc_wire {

// At start-up, blocking, within the config's connect and reply timeouts: the serialized
// FileDescriptorProtos of the file that defines the service of `call`'s method and of every file
// it imports, from the server at c.connect (over TLS with ALPN h2 when c.tls says), asked with
// the call's metadata (as grpcurl sends -H with its reflection requests). Throws std::invalid_argument (one
// line) when the server cannot be asked, offers no reflection, or does not know the symbol.
std::vector<std::string> fetch_reflected_files(const client_config& c, const grpc_call& call);

}  // namespace wirebench::grpc_wire
