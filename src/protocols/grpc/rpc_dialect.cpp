#include "rpc_dialect.hpp"

#include <algorithm>
#include <stdexcept>

namespace wirebench::grpc_wire {
namespace {

// gRPC's own first, then the others in the order their folders registered them. A function's
// static: registrations run during static initialisation, in an order no file controls.
std::vector<const rpc_dialect*>& registered() {
  static std::vector<const rpc_dialect*> dialects{&grpc_dialect()};
  return dialects;
}

}  // namespace


std::span<const std::string_view> read_header_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const rpc_dialect* d : registered())
      for (const std::string_view name : d->headers_read())
        if (std::find(all.begin(), all.end(), name) == all.end()) all.push_back(name);
    return all;
  }();
  return names;
}

std::size_t header_slot(std::string_view name) {
  const auto names = read_header_names();
  const auto at = std::find(names.begin(), names.end(), name);
  if (at == names.end()) throw std::logic_error("no dialect reads header " + std::string(name));
  return static_cast<std::size_t>(at - names.begin());
}

const rpc_dialect* dialect_for(const rpc_request& r) {
  for (const rpc_dialect* d : registered())
    if (d->serves(r)) return d;
  return nullptr;
}

rpc_dialect_registration::rpc_dialect_registration(const rpc_dialect& dialect) {
  registered().push_back(&dialect);
}

}  // namespace wirebench::grpc_wire
