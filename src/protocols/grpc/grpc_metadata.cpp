#include "grpc_metadata.hpp"

#include "../http/base64.hpp"
#include "wirebench/core/setting_error.hpp"

namespace wirebench::grpc_wire {

std::vector<std::pair<std::string, std::string>> checked_metadata(const grpc_call& call) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [given, value] : call.metadata) {
    std::string name;
    for (const char c : given) {
      const char lower = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
      if (!((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '-' ||
            lower == '_' || lower == '.'))
        throw setting_error("header", "'" + given + "' is not a gRPC metadata key (letters, digits, "
                                                    "'-', '_', '.')");
      name.push_back(lower);
    }
    if (name.empty()) throw setting_error("header", "a gRPC metadata key is not empty");
    if (name.starts_with("grpc-") || name == "content-type" || name == "te" || name == "user-agent")
      throw setting_error("header", "'" + given + "': the gRPC client sets it itself");
    if (!name.ends_with("-bin"))
      for (const char c : value)
        if (c < 0x20 || c > 0x7e)
          throw setting_error("header", "'" + given + "': a value other than a -bin key's is "
                                                      "printable ASCII");
    out.emplace_back(std::move(name), value);
  }
  return out;
}

std::string wire_value(std::string_view name, std::string_view value) {
  if (!name.ends_with("-bin")) return std::string(value);
  std::string out;
  http::append_base64(out, value);  // padded, as gRPC receivers must accept
  return out;
}

}  // namespace wirebench::grpc_wire
