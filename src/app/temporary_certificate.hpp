#pragma once
// A self-signed certificate (localhost, 127.0.0.1, ::1) made for one program run, on disk for the
// servers it starts (their --tls-cert and --tls-key) and for clients to verify them against; its
// folder, private to the user, is removed when it is destroyed.
#include <filesystem>
#include <string>

namespace wirebench::app {

class temporary_certificate {
 public:
  temporary_certificate();  // throws std::runtime_error when it cannot be written
  ~temporary_certificate();
  temporary_certificate(const temporary_certificate&) = delete;
  temporary_certificate& operator=(const temporary_certificate&) = delete;

  std::string certificate() const { return (dir_ / "cert.pem").string(); }
  std::string key() const { return (dir_ / "key.pem").string(); }

 private:
  std::filesystem::path dir_;
};

}  // namespace wirebench::app
