#include "grpc_request_bytes.hpp"

namespace wirebench::grpc_backend {
namespace {
grpc::ByteBuffer buffer_of(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}
}  // namespace

grpc_request_bytes::grpc_request_bytes(const std::vector<std::string>& messages,
                                       std::uint64_t keyspace) {
  for (const std::string& bytes : messages) {
    message& m = messages_.emplace_back();
    m.bytes = bytes;
    auto numbers = std::make_unique<placeholder_filler>(bytes, keyspace, next_placeholder_seed());
    if (numbers->empty())
      m.shared = buffer_of(bytes);
    else
      m.numbers = std::move(numbers);
  }
}

grpc::ByteBuffer grpc_request_bytes::at(std::size_t i) const {
  const message& m = messages_[i];
  if (!m.numbers) return m.shared;  // a reference count, no copy
  std::string filled = m.bytes;
  {
    std::lock_guard lock(*mutex_);
    m.numbers->fill(filled);
  }
  return buffer_of(filled);
}

}  // namespace wirebench::grpc_backend
