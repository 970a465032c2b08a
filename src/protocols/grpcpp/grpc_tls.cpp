#include "grpc_tls.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_certificate_verifier.h>
#include <grpcpp/security/tls_credentials_options.h>

#include "wirebench/protocols/input_file.hpp"
#include "wirebench/tls/tls_context.hpp"

namespace wirebench::grpc_backend {
namespace {

std::string read_pem(const std::string& path) { return read_input_file(path, max_listing_file_bytes, "TLS file"); }

}  // namespace

std::shared_ptr<grpc::ServerCredentials> server_credentials(const tls_options& tls) {
  if (!tls.enabled) return grpc::InsecureServerCredentials();
  if (tls.certificate_file.empty() != tls.private_key_file.empty())
    throw std::runtime_error("TLS needs both a certificate file and a private key file, or neither");
  tls::certificate_pem pem;
  if (tls.certificate_file.empty()) {
    pem = tls::make_self_signed_certificate();
  } else {
    pem.certificate = read_pem(tls.certificate_file);
    pem.private_key = read_pem(tls.private_key_file);
  }
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({pem.private_key, pem.certificate});
  if (!tls.client_ca_file.empty()) {
    // Mutual TLS, as our own servers do it (tls_context.cpp): a client certificate from this CA.
    options.pem_root_certs = read_pem(tls.client_ca_file);
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
  }
  return grpc::SslServerCredentials(options);
}

std::shared_ptr<grpc::ChannelCredentials> channel_credentials(const tls_options& tls) {
  if (!tls.enabled) return grpc::InsecureChannelCredentials();
  if (tls.certificate_file.empty() != tls.private_key_file.empty())
    throw std::runtime_error("a client certificate needs its private key, and a key its certificate (certificate_file and private_key_file go together)");
  if (tls.insecure) {
    // grpc++'s only way to skip verification in 1.51 is its experimental TLS credentials.
    grpc::experimental::TlsChannelCredentialsOptions options;
    options.set_verify_server_certs(false);
    options.set_check_call_host(false);
    options.set_certificate_verifier(
        std::make_shared<grpc::experimental::NoOpCertificateVerifier>());
    if (!tls.certificate_file.empty()) {
      options.set_certificate_provider(
          std::make_shared<grpc::experimental::StaticDataCertificateProvider>(
              std::vector<grpc::experimental::IdentityKeyCertPair>{
                  {read_pem(tls.private_key_file), read_pem(tls.certificate_file)}}));
      options.watch_identity_key_cert_pairs();
    }
    return grpc::experimental::TlsCredentials(options);
  }
  grpc::SslCredentialsOptions options;  // no roots given: gRPC's default roots (the system's)
  if (!tls.ca_file.empty()) options.pem_root_certs = read_pem(tls.ca_file);
  if (!tls.certificate_file.empty()) {  // a client certificate (mutual TLS)
    options.pem_cert_chain = read_pem(tls.certificate_file);
    options.pem_private_key = read_pem(tls.private_key_file);
  }
  return grpc::SslCredentials(options);
}

}  // namespace wirebench::grpc_backend
