#pragma once
// A client of gRPC server reflection (grpc.reflection.v1alpha, what grpcurl and ghz use without a
// .proto): the files that define a service, and those they import, as the server describes them.
// Written here because grpc++ 1.51 in Debian installs no reflection client (its
// ProtoReflectionDescriptorDatabase is not part of the library); the messages are grpc++'s own,
// found by name in the generated pool (libgrpc++_reflection registers them).
#include <string>
#include <vector>

#include "wirebench/protocols/protocol.hpp"

namespace wirebench::grpc_backend {

// At start-up, blocking, within the config's connect timeout: the serialized FileDescriptorProtos
// of the file that defines `symbol` and of every file it imports, from the server at c.connect
// (over TLS when c.tls says). Throws std::invalid_argument (one line) when the server cannot be
// asked, offers no reflection, or does not know the symbol.
std::vector<std::string> reflected_files(const client_config& c, const std::string& symbol);

}  // namespace wirebench::grpc_backend
