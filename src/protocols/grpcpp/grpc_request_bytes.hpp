#pragma once
// A gRPC user call's request messages, serialized once. A message with `__rand_int__` in a string
// field gets fresh digits in each call's copy: the placeholder and its 12 digits are the same
// length, so every length prefix around them stays right and the copy is still a valid message.
// Calls start on several threads (callers', and the client's queue threads), so the numbers are
// drawn under a lock; a message without the placeholder is shared by every call, uncopied.
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <grpcpp/support/byte_buffer.h>

#include "wirebench/protocols/call_placeholder.hpp"

namespace wirebench::grpc_backend {

class grpc_request_bytes {
 public:
  grpc_request_bytes(const std::vector<std::string>& messages, std::uint64_t keyspace);

  std::size_t size() const { return messages_.size(); }
  // Message `i` for one call: shared bytes, or a copy with the placeholders filled.
  grpc::ByteBuffer at(std::size_t i) const;

 private:
  struct message {
    std::string bytes;
    grpc::ByteBuffer shared;                   // when there is no placeholder
    std::unique_ptr<placeholder_filler> numbers;  // when there is
  };
  std::vector<message> messages_;
  std::unique_ptr<std::mutex> mutex_ = std::make_unique<std::mutex>();  // for `numbers`
};

}  // namespace wirebench::grpc_backend
