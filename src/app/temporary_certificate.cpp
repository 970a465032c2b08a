#include "temporary_certificate.hpp"

#include <fstream>
#include <stdexcept>

#include <stdlib.h>

#include "wirebench/tls/tls_context.hpp"

namespace wirebench::app {

temporary_certificate::temporary_certificate() {
  std::string dir = (std::filesystem::temp_directory_path() / "wirebench-tls-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr)  // mode 0700: the key stays the user's
    throw std::runtime_error("cannot make a directory for the certificate in " + dir);
  dir_ = dir;
  const tls::certificate_pem pem = tls::make_self_signed_certificate();
  std::ofstream cert(certificate()), key_file(key());
  cert << pem.certificate;
  key_file << pem.private_key;
  std::filesystem::permissions(key(), std::filesystem::perms::owner_read |
                                          std::filesystem::perms::owner_write);
  if (!cert.flush() || !key_file.flush())
    throw std::runtime_error("cannot write the certificate in " + dir_.string());
}

temporary_certificate::~temporary_certificate() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace wirebench::app
