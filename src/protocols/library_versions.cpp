// Version strings only (and the I/O path and gRPC's poller): the one place outside a protocol's
// folder that names nghttp2, gRPC and hiredis, because a result must say which of them it measured.
#include "wirebench/protocols/library_versions.hpp"

#include <asio/version.hpp>
#include <google/protobuf/stubs/common.h>
#include <grpcpp/grpcpp.h>
#include <hiredis/hiredis.h>
#include <llhttp.h>
#include <msgpack/version.hpp>
#include <nghttp2/nghttp2.h>
#include <openssl/crypto.h>

#include "grpc/grpc_backend.hpp"
#include "wirebench/transport/read_wait_path.hpp"

namespace wirebench {

std::vector<std::pair<std::string, std::string>> library_versions() {
  auto dotted = [](int major, int minor, int patch) {
    return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  };
  std::vector<std::pair<std::string, std::string>> versions = {
      {"asio", dotted(ASIO_VERSION / 100000, ASIO_VERSION / 100 % 1000, ASIO_VERSION % 100)},
      {"nghttp2", nghttp2_version(0)->version_str},
      {"grpc", grpc::Version()},
      {"protobuf", google::protobuf::internal::VersionString(GOOGLE_PROTOBUF_VERSION)},
      {"hiredis", dotted(HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH)},
      {"llhttp", dotted(LLHTTP_VERSION_MAJOR, LLHTTP_VERSION_MINOR, LLHTTP_VERSION_PATCH)},
      {"msgpack-cxx", msgpack_version()},
      {"openssl", OpenSSL_version(OPENSSL_VERSION)},
  };
  // Not versions either, but they set what a call costs: how connections wait for readability
  // (transport/read_wait_path.hpp), and gRPC's poller (grpc_client_polling.cpp).
  versions.emplace_back("io-path", std::string(read_wait_path()));
  // gRPC's poller sets what its client costs (grpc_client_polling.cpp): known once
  // gRPC has started in this process.
  if (std::string poller = grpc_backend::grpc_poller(); !poller.empty())
    versions.emplace_back("grpc-poller", std::move(poller));
  return versions;
}

}  // namespace wirebench
