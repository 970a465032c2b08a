#include "grpc_message.hpp"

#include "wirebench/core/error.hpp"

namespace wirebench::grpc_wire {

std::error_code grpc_message_decoder::error() const {
  return bad_flag_ ? make_error_code(errc::protocol_error) : frames_.error();
}

void append_grpc_prefix(std::size_t size, bool compressed, std::string& out) {
  out.push_back(compressed ? '\1' : '\0');
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>((size >> shift) & 0xff));
}

}  // namespace wirebench::grpc_wire
