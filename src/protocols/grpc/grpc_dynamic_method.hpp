#pragma once
// A gRPC method known only from its .proto at run time (ghz's --proto and --call): protobuf's
// importer parses the file, its descriptors give the request and reply types, and dynamic
// messages stand for them. No code is generated. The request messages are built from JSON once
// (a JSON array is one message per element: a client-streaming method's stream, or for any other
// method one message per call, in turn); each reply is parsed as the method's reply type, so
// bytes that are not one fail the call.
#include <functional>
#include <vector>
#include <memory>
#include <string>
#include <string_view>

#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor_database.h>
#include <google/protobuf/dynamic_message.h>

#include "grpc_call.hpp"
#include "rpc_dialect.hpp"
#include "wirebench/protocols/user_call.hpp"

namespace wirebench::grpc_wire {

// "package.Service" of "package.Service/Method". Throws std::invalid_argument (one line) on
// anything else.
std::string service_of(const std::string& method);

class grpc_dynamic_method {
 public:
  // At start-up. The method's descriptors come from call.proto_file, or with call.reflect from
  // `reflected_files` (serialized FileDescriptorProtos the server sent: grpc_reflection_client.hpp).
  // Throws std::invalid_argument (one line) when the file does not parse, the method is not in
  // it, or the JSON is not a valid request message or an array of them.
  explicit grpc_dynamic_method(const grpc_call& call, const std::vector<std::string>& reflected_files = {});
  ~grpc_dynamic_method();
  grpc_dynamic_method(const grpc_dynamic_method&) = delete;
  grpc_dynamic_method& operator=(const grpc_dynamic_method&) = delete;

  // gRPC's path for it: "/package.Service/Method".
  const std::string& path() const { return path_; }
  bool client_streaming() const { return client_streaming_; }
  bool server_streaming() const { return server_streaming_; }
  // The request messages, serialized in `format`: one, or one per element of -d's JSON array.
  const std::vector<std::string>& request_messages(message_format format = message_format::proto) const {
    return format == message_format::json ? requests_json_ : requests_;
  }
  // How many of them one call sends: all (a client-streaming method's stream), or one, each call
  // the next in turn.
  std::size_t messages_per_call() const { return client_streaming_ ? requests_.size() : 1; }
  // `bytes`, a reply message in `format`, as JSON (protobuf's canonical form) appended to `json`;
  // false when they are not a valid reply. Any thread (the prototype is shared read-only; each
  // call parses into a message of its own).
  bool append_reply_json(message_format format, std::string_view bytes, std::string& json) const;

 private:
  class error_collector;
  template <class Refuse>
  void check_imports(const std::string& file, const Refuse& bad);
  std::unique_ptr<error_collector> errors_;
  google::protobuf::compiler::DiskSourceTree source_tree_;
  std::unique_ptr<google::protobuf::compiler::Importer> importer_;  // from a .proto
  google::protobuf::SimpleDescriptorDatabase reflected_;             // from the server
  std::unique_ptr<google::protobuf::DescriptorPool> reflected_pool_;
  google::protobuf::DynamicMessageFactory factory_;  // after importer_: its prototypes go first
  const google::protobuf::Message* reply_prototype_ = nullptr;
  std::string path_;
  std::vector<std::string> requests_;       // protobuf's binary form
  std::vector<std::string> requests_json_;  // the same in canonical JSON (Connect's JSON codec)
  bool client_streaming_ = false;
  bool server_streaming_ = false;
};

// The methods of `calls` (each a gRPC call), in order, for both gRPC clients: from each call's
// .proto, or with --reflect from the files `fetch(call)` gets from the server, asked once per
// service. Start-up only; throws as the constructor does.
std::vector<std::shared_ptr<const grpc_dynamic_method>> dynamic_methods(
    const std::vector<user_call>& calls,
    const std::function<std::vector<std::string>(const grpc_call&)>& fetch);

}  // namespace wirebench::grpc_wire
