#include "grpc_reflection.hpp"

#include <map>
#include <vector>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>

#include "proto/echo.pb.h"
#include "proto/reflection.pb.h"

namespace wirebench::grpc_wire {
namespace {

namespace gp = ::google::protobuf;
namespace rpb = ::wirebench::reflection;

constexpr int not_found = 5;  // gRPC's NOT_FOUND, the code grpc's servers answer a miss with

// What reflection shows, built once per process and only read after: a pool of its own with the
// Echo service's file (and what it imports) and the reflection service's, in both versions, so
// that a lookup can never reach another file of the process (grpc++'s, the benchmarks').
// DescriptorPool lookups are thread-safe: every connection's session shares it.
class catalog {
 public:
  catalog() {
    add_with_imports(::wirebench::echo::GreetRequest::descriptor()->file());
    for (const char* version : {"v1", "v1alpha"}) add(reflection_file(version));
  }
  const gp::DescriptorPool& pool() const { return pool_; }
  // The serialized FileDescriptorProto of `file`, then those of its imports, once each.
  void append_with_imports(const gp::FileDescriptor* file, rpb::FileDescriptorResponse& out,
                           std::vector<const gp::FileDescriptor*>& seen) const {
    for (const auto* s : seen)
      if (s == file) return;
    seen.push_back(file);
    out.add_file_descriptor_proto(serialized_.at(file->name()));
    for (int i = 0; i < file->dependency_count(); ++i)
      append_with_imports(file->dependency(i), out, seen);
  }
  std::vector<std::string> services() const {
    return {"grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection",
            std::string(::wirebench::echo::GreetRequest::descriptor()->file()->service(0)->full_name())};
  }

 private:
  void add(const gp::FileDescriptorProto& file) {
    pool_.BuildFile(file);
    serialized_[file.name()] = file.SerializeAsString();
  }
  void add_with_imports(const gp::FileDescriptor* file) {
    if (serialized_.contains(file->name())) return;
    for (int i = 0; i < file->dependency_count(); ++i) add_with_imports(file->dependency(i));
    gp::FileDescriptorProto proto;
    file->CopyTo(&proto);
    add(proto);
  }
  // grpc's reflection.proto in `version`: our copy of its messages (proto/reflection.proto) under
  // grpc's package and file name, with the service, which ours leaves out.
  static gp::FileDescriptorProto reflection_file(const std::string& version) {
    const std::string package = "grpc.reflection." + version;
    gp::FileDescriptorProto proto;
    rpb::ServerReflectionRequest::descriptor()->file()->CopyTo(&proto);
    const std::string ours = "." + proto.package() + ".";
    proto.set_name("grpc/reflection/" + version + "/reflection.proto");
    proto.set_package(package);
    for (auto& message : *proto.mutable_message_type())
      for (auto& field : *message.mutable_field())
        if (field.type_name().starts_with(ours))
          field.set_type_name("." + package + "." + field.type_name().substr(ours.size()));
    auto* method = proto.add_service();
    method->set_name("ServerReflection");
    auto* info = method->add_method();
    info->set_name("ServerReflectionInfo");
    info->set_input_type("." + package + ".ServerReflectionRequest");
    info->set_output_type("." + package + ".ServerReflectionResponse");
    info->set_client_streaming(true);
    info->set_server_streaming(true);
    return proto;
  }

  gp::DescriptorPool pool_;
  std::map<std::string, std::string, std::less<>> serialized_;  // by file name
};

const catalog& shown() {
  static const catalog c;
  return c;
}

}  // namespace

struct reflection_service::messages {
  rpb::ServerReflectionRequest request;
  rpb::ServerReflectionResponse response;
  std::vector<const gp::FileDescriptor*> seen;
};

reflection_service::reflection_service() : messages_(std::make_unique<messages>()) {}
reflection_service::~reflection_service() = default;

bool reflection_service::answer(std::string_view request, std::string& response) {
  using kind = rpb::ServerReflectionRequest::MessageRequestCase;
  rpb::ServerReflectionRequest& in = messages_->request;
  rpb::ServerReflectionResponse& out = messages_->response;
  if (!in.ParseFromArray(request.data(), static_cast<int>(request.size()))) return false;
  out.Clear();
  out.set_valid_host(in.host());
  *out.mutable_original_request() = in;
  const catalog& c = shown();
  const gp::FileDescriptor* file = nullptr;
  std::string missing;
  switch (in.message_request_case()) {
    case kind::kListServices:
      for (const std::string& name : c.services())
        out.mutable_list_services_response()->add_service()->set_name(name);
      break;
    case kind::kFileByFilename:
      file = c.pool().FindFileByName(in.file_by_filename());
      if (file == nullptr) missing = "file not found: " + in.file_by_filename();
      break;
    case kind::kFileContainingSymbol:
      file = c.pool().FindFileContainingSymbol(in.file_containing_symbol());
      if (file == nullptr) missing = "symbol not found: " + in.file_containing_symbol();
      break;
    case kind::kFileContainingExtension: {
      const auto& ext = in.file_containing_extension();
      const gp::Descriptor* type = c.pool().FindMessageTypeByName(ext.containing_type());
      const gp::FieldDescriptor* field =
          type == nullptr ? nullptr : c.pool().FindExtensionByNumber(type, ext.extension_number());
      if (field != nullptr) file = field->file();
      else missing = "extension not found";
      break;
    }
    case kind::kAllExtensionNumbersOfType: {
      const gp::Descriptor* type = c.pool().FindMessageTypeByName(in.all_extension_numbers_of_type());
      if (type == nullptr) {
        missing = "type not found: " + in.all_extension_numbers_of_type();
        break;
      }
      auto& numbers = *out.mutable_all_extension_numbers_response();
      numbers.set_base_type_name(type->full_name());
      std::vector<const gp::FieldDescriptor*> extensions;
      c.pool().FindAllExtensions(type, &extensions);
      for (const auto* e : extensions) numbers.add_extension_number(e->number());
      break;
    }
    case kind::MESSAGE_REQUEST_NOT_SET:
      missing = "no request";
      break;
  }
  if (file != nullptr) {
    messages_->seen.clear();
    c.append_with_imports(file, *out.mutable_file_descriptor_response(), messages_->seen);
  } else if (!missing.empty()) {
    auto& error = *out.mutable_error_response();
    error.set_error_code(not_found);
    error.set_error_message(missing);
  }
  out.SerializeToString(&response);
  return true;
}

}  // namespace wirebench::grpc_wire
