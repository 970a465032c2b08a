#pragma once
// TLS for the gRPC backends through grpc++'s own credentials (gRPC core speaks TLS itself, under
// its HTTP/2), set from the same tls_options as every other protocol: the server's certificate
// files or a self-signed one made in memory; the client's CA file, the system's CAs, or none.
#include <memory>

#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>

#include "wirebench/tls/tls_options.hpp"

namespace wirebench::grpc_backend {

// Plaintext when !tls.enabled. Throws at start-up when a file cannot be read.
std::shared_ptr<grpc::ServerCredentials> server_credentials(const tls_options& tls);
std::shared_ptr<grpc::ChannelCredentials> channel_credentials(const tls_options& tls);

}  // namespace wirebench::grpc_backend
