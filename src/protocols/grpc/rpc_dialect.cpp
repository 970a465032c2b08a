#include "rpc_dialect.hpp"

namespace wirebench::grpc_wire {
namespace {

// gRPC's own first, then the others in the order their folders registered them. A function's
// static: registrations run during static initialisation, in an order no file controls.
std::vector<const rpc_dialect*>& registered() {
  static std::vector<const rpc_dialect*> dialects{&grpc_dialect()};
  return dialects;
}

}  // namespace

std::string_view rpc_request::header(std::string_view name) const {
  if (headers == nullptr) return {};
  for (std::size_t i = 0; i < header_count && i < headers->size(); ++i)
    if ((*headers)[i].first == name) return (*headers)[i].second;
  return {};
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
