#include "grpc_backend.hpp"

#include <algorithm>
#include <climits>

#include "wirebench/core/error.hpp"

namespace wirebench::grpc_backend {

int grpc_milliseconds(std::chrono::steady_clock::duration d) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  return static_cast<int>(std::clamp<std::int64_t>(ms, 0, INT_MAX));
}

std::string grpc_address(const endpoint& where) {
  switch (where.type) {
    case endpoint::kind::unix_path:
      return "unix:" + where.address;
    case endpoint::kind::unix_abstract:
      return "unix-abstract:" + where.address;
    case endpoint::kind::tcp:
      break;
  }
  const bool v6 = where.address.find(':') != std::string::npos;
  return (v6 ? "[" + where.address + "]" : where.address) + ":" + std::to_string(where.port);
}

std::error_code error_for(const grpc::Status& status) {
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      return {};
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return errc::timeout;
    case grpc::StatusCode::CANCELLED:
      return errc::canceled;
    case grpc::StatusCode::UNAVAILABLE: {
      // gRPC has no separate codes for these, only its messages: a TLS handshake that failed
      // (its last error names it: "Ssl handshake failed: ... CERTIFICATE_VERIFY_FAILED"), a peer
      // it never reached, a connection lost.
      const std::string& why = status.error_message();
      if (why.find("andshake") != std::string::npos ||
          why.find("is not in peer certificate") != std::string::npos)  // a name that does not verify
        return errc::tls_failed;
      return why.find("failed to connect") != std::string::npos
                 ? make_error_code(errc::connect_failed)
                 : make_error_code(errc::connection_closed);
    }
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return errc::rejected;
    default:
      return errc::remote_error;
  }
}

}  // namespace wirebench::grpc_backend
