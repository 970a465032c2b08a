#include "grpc_user_rpc.hpp"

namespace wirebench::grpc_backend {

bool append_reply_json(const grpc_dynamic_method& method, const grpc::ByteBuffer& reply,
                       std::string& json) {
  grpc::Slice joined;
  if (!reply.TrySingleSlice(&joined).ok() && !reply.DumpToSingleSlice(&joined).ok()) return false;
  return method.append_reply_json(
      grpc_wire::message_format::proto, std::string_view(reinterpret_cast<const char*>(joined.begin()), joined.size()), json);
}

}  // namespace wirebench::grpc_backend
