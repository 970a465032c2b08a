// The versions every result records: the transport's (Asio, OpenSSL, the I/O path) and each
// registered protocol's own (protocol::libraries), so that a figure can be tied to its code.
#include "wirebench/protocols/library_versions.hpp"

#include <asio/version.hpp>
#include <openssl/crypto.h>

#include "wirebench/protocols/registry.hpp"
#include "wirebench/transport/read_wait_path.hpp"

namespace wirebench {

std::string dotted_version(int major, int minor, int patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::vector<std::pair<std::string, std::string>> library_versions() {
  std::vector<std::pair<std::string, std::string>> versions = {
      {"asio", dotted_version(ASIO_VERSION / 100000, ASIO_VERSION / 100 % 1000, ASIO_VERSION % 100)},
      {"openssl", OpenSSL_version(OPENSSL_VERSION)},
  };
  for (const protocol& p : protocol_registry::builtin().all()) {
    if (!p.libraries) continue;
    for (auto& [name, version] : p.libraries()) {
      bool known = false;
      for (const auto& v : versions) known = known || v.first == name;
      if (!known) versions.emplace_back(std::move(name), std::move(version));
    }
  }
  // Not a version, but it sets what a call costs: how connections wait for readability
  // (transport/read_wait_path.hpp).
  versions.emplace_back("io-path", std::string(read_wait_path()));
  return versions;
}

}  // namespace wirebench
