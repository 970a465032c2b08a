#pragma once
// gRPC server reflection (grpc.reflection.v1 and v1alpha, ServerReflectionInfo) for our gRPC
// server, from protobuf's generated descriptor pool: what grpcurl, grpcui and Postman ask a server
// that they have no .proto for. Sans-IO: a request message's bytes in, the response's out; the
// server session (grpc_server_streams.cpp) answers each message of the stream with it.
//
// Answers: list_services (the Echo service and the reflection services), file_by_filename and
// file_containing_symbol (the file with every file it imports, as serialized
// FileDescriptorProtos; only files of the services listed: the rest of the process's pool, grpc++'s
// among it, is not ours to show), all_extension_numbers_of_type (none: proto3 has no extensions).
// Anything else, or a name not found, is an error_response with NOT_FOUND, as grpc's own servers
// answer.
#include <memory>
#include <string>
#include <string_view>

namespace wirebench::grpc_wire {

// The request paths served (one service, two versions of it).
inline constexpr std::string_view reflection_v1_path =
    "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
inline constexpr std::string_view reflection_v1alpha_path =
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";

class reflection_service {
 public:
  reflection_service();
  ~reflection_service();  // not copyable: it owns its messages

  // The ServerReflectionResponse to one ServerReflectionRequest (`request`, serialized), into
  // `response` (replaced); false when the request is not one (the stream then fails INTERNAL).
  bool answer(std::string_view request, std::string& response);

 private:
  struct messages;  // the protobuf messages, reused
  std::unique_ptr<messages> messages_;
};

}  // namespace wirebench::grpc_wire
