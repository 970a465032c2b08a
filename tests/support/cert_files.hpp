#pragma once
// A self-signed test certificate and its key on disk, in a fresh folder (made at test time, never
// committed; removed when the object goes): for --tls-cert, --tls-ca and the peer tools' flags.
// The certificate names `common_name`, localhost, 127.0.0.1 and ::1, and is its own CA: a
// server's, or a client's for mutual TLS.
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include <unistd.h>

#include "wirebench/tls/tls_context.hpp"

namespace wirebench::test {

class cert_files {
 public:
  explicit cert_files(std::string_view common_name = "localhost") {
    dir_ = std::filesystem::temp_directory_path() /
           ("wirebench-cert-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++));
    std::filesystem::create_directories(dir_);
    const tls::certificate_pem pem = tls::make_self_signed_certificate(common_name);
    std::ofstream(cert()) << pem.certificate;
    std::ofstream(key()) << pem.private_key;
  }
  ~cert_files() { std::filesystem::remove_all(dir_); }
  cert_files(const cert_files&) = delete;
  cert_files& operator=(const cert_files&) = delete;
  std::string cert() const { return (dir_ / "cert.pem").string(); }
  std::string key() const { return (dir_ / "key.pem").string(); }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  static inline std::atomic<int> counter_ = 0;
  std::filesystem::path dir_;
};

// A client's options for a server with a self-signed certificate: nothing verified.
inline tls_options insecure_client_options() {
  tls_options options;
  options.insecure = true;
  return options;
}

}  // namespace wirebench::test
