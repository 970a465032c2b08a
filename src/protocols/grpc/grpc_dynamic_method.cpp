#include "grpc_dynamic_method.hpp"

#include <filesystem>
#include <stdexcept>

#include <google/protobuf/util/json_util.h>

namespace wirebench::grpc_backend {

namespace pb = google::protobuf;

// The first error protoc would print, kept for the one-line message.
class grpc_dynamic_method::error_collector final : public pb::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& file, int line, int column, const std::string& message) override {
    if (first_.empty())
      first_ = file + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " + message;
  }
  const std::string& first() const { return first_; }

 private:
  std::string first_;
};

grpc_dynamic_method::grpc_dynamic_method(const grpc_call& call)
    : errors_(std::make_unique<error_collector>()) {
  auto bad = [&](const std::string& why) {
    throw std::invalid_argument("--proto " + call.proto_file + ": " + why);
  };
  const std::filesystem::path file = call.proto_file;
  if (!std::filesystem::is_regular_file(file)) bad("no such file");
  // Imports resolve against the import paths, or the file's own folder.
  std::vector<std::string> roots = call.import_paths;
  if (roots.empty()) roots.push_back(file.parent_path().empty() ? "." : file.parent_path().string());
  for (const auto& root : roots) source_tree_.MapPath("", root);
  std::string virtual_file, shadowing;
  if (source_tree_.DiskFileToVirtualFile(file.string(), &virtual_file, &shadowing) !=
      pb::compiler::DiskSourceTree::SUCCESS)
    bad("not under an import path (--import-path)");
  importer_ = std::make_unique<pb::compiler::Importer>(&source_tree_, errors_.get());
  const pb::FileDescriptor* parsed = importer_->Import(virtual_file);
  if (parsed == nullptr) bad(errors_->first().empty() ? "does not parse" : errors_->first());

  const auto slash = call.method.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == call.method.size())
    throw std::invalid_argument("--call " + call.method + ": give package.Service/Method");
  const std::string service_name = call.method.substr(0, slash);
  const pb::ServiceDescriptor* service = importer_->pool()->FindServiceByName(service_name);
  if (service == nullptr) bad("no service " + service_name);
  const pb::MethodDescriptor* method = service->FindMethodByName(call.method.substr(slash + 1));
  if (method == nullptr) bad("no method " + call.method);
  if (method->client_streaming() || method->server_streaming())
    throw std::invalid_argument("--call " + call.method + ": a streaming method; only unary ones are called yet");
  path_ = "/" + service->full_name() + "/" + method->name();

  std::unique_ptr<pb::Message> request(factory_.GetPrototype(method->input_type())->New());
  const auto parsed_json = pb::util::JsonStringToMessage(call.request_json, request.get());
  if (!parsed_json.ok())
    throw std::invalid_argument("-d: not a " + method->input_type()->full_name() + " in JSON (" +
                                std::string(parsed_json.message()) + ")");
  request->SerializeToString(&request_bytes_);
  reply_prototype_ = factory_.GetPrototype(method->output_type());
}

grpc_dynamic_method::~grpc_dynamic_method() = default;

bool grpc_dynamic_method::reply_json(std::string_view bytes, std::string& json) const {
  std::unique_ptr<pb::Message> reply(reply_prototype_->New());
  if (!reply->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return false;
  json.clear();
  return pb::util::MessageToJsonString(*reply, &json).ok();
}

}  // namespace wirebench::grpc_backend
