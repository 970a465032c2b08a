#pragma once
// A unary gRPC method known only from its .proto at run time (ghz's --proto and --call):
// protobuf's importer parses the file, its descriptors give the request and reply types, and
// dynamic messages stand for them. No code is generated. The request is built from JSON once;
// each reply is parsed as the method's reply type, so bytes that are not one fail the call.
#include <memory>
#include <string>
#include <string_view>

#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/dynamic_message.h>

#include "wirebench/protocols/user_call.hpp"

namespace wirebench::grpc_backend {

class grpc_dynamic_method {
 public:
  // At start-up. Throws std::invalid_argument (one line) when the file does not parse, the
  // method is not in it or streams, or the JSON is not a valid request message.
  explicit grpc_dynamic_method(const grpc_call& call);
  ~grpc_dynamic_method();
  grpc_dynamic_method(const grpc_dynamic_method&) = delete;
  grpc_dynamic_method& operator=(const grpc_dynamic_method&) = delete;

  // gRPC's path for it: "/package.Service/Method".
  const std::string& path() const { return path_; }
  // The request message, serialized.
  const std::string& request_bytes() const { return request_bytes_; }
  // `bytes` as the reply message in JSON into `json`; false when they are not a valid reply.
  // Any thread (the prototype is shared read-only; each call parses into a message of its own).
  bool reply_json(std::string_view bytes, std::string& json) const;

 private:
  class error_collector;
  std::unique_ptr<error_collector> errors_;
  google::protobuf::compiler::DiskSourceTree source_tree_;
  std::unique_ptr<google::protobuf::compiler::Importer> importer_;
  google::protobuf::DynamicMessageFactory factory_;  // after importer_: its prototypes go first
  const google::protobuf::Message* reply_prototype_ = nullptr;
  std::string path_;
  std::string request_bytes_;
};

}  // namespace wirebench::grpc_backend
