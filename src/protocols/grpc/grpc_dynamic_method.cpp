#include "grpc_dynamic_method.hpp"

#include <filesystem>
#include <map>
#include <stdexcept>

#include <google/protobuf/util/json_util.h>
#include <nlohmann/json.hpp>

#include "grpc_import_chain.hpp"
#include "rpc_message_format.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/nesting_depth.hpp"

namespace wirebench::grpc_wire {

namespace protobuf = google::protobuf;

// The first error protoc would print, kept for the one-line message.
class grpc_dynamic_method::error_collector final : public protobuf::compiler::MultiFileErrorCollector {
 public:
  void AddError(const std::string& file, int line, int column, const std::string& message) override {
    if (first_.empty())
      first_ = file + ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1) + ": " + message;
  }
  const std::string& first() const { return first_; }

 private:
  std::string first_;
};

std::string service_of(const std::string& method) {
  const auto slash = method.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == method.size())
    throw setting_error("call", "'" + method + "': give package.Service/Method");
  return method.substr(0, slash);
}

// The imports `file` (a virtual name under the source tree) comes to, each file parsed alone (no
// import followed: protobuf's Importer would recurse), refused by `bad` when there are more than
// most_proto_files of them or they chain deeper than deepest_import_chain. A file that does not
// parse is left to the Importer to name.
template <class Refuse>
void grpc_dynamic_method::check_imports(const std::string& file, const Refuse& bad) {
  protobuf::compiler::SourceTreeDescriptorDatabase alone(&source_tree_);
  std::map<std::string, std::vector<std::string>> imports;
  std::vector<std::string> next{file};
  while (!next.empty()) {
    const std::string name = std::move(next.back());
    next.pop_back();
    if (imports.contains(name)) continue;
    if (imports.size() >= most_proto_files)
      bad("imports more than " + std::to_string(most_proto_files) + " files");
    protobuf::FileDescriptorProto proto;
    auto& needs = imports[name];
    if (!alone.FindFileByName(name, &proto)) continue;
    needs.assign(proto.dependency().begin(), proto.dependency().end());
    for (const auto& dependency : needs) next.push_back(dependency);
  }
  const auto chain = longest_import_chain(imports);
  if (!chain) bad("its imports go round in a circle");
  if (*chain > deepest_import_chain)
    bad("its imports chain " + std::to_string(*chain) + " files deep, more than " +
        std::to_string(deepest_import_chain));
}

grpc_dynamic_method::grpc_dynamic_method(const grpc_call& call,
                                         const std::vector<std::string>& reflected_files)
    : errors_(std::make_unique<error_collector>()) {
  auto bad = [&](const std::string& why) {
    if (call.reflect) throw setting_error("reflect", why);
    throw setting_error("proto", call.proto_file + ": " + why);
  };
  const protobuf::DescriptorPool* pool = nullptr;
  if (call.reflect) {
    for (const std::string& bytes : reflected_files) {
      protobuf::FileDescriptorProto file;
      if (!file.ParseFromString(bytes) || !reflected_.Add(file)) bad("the server sent a file that is not one");
    }
    // Built lazily from the database, each file after its dependencies.
    reflected_pool_ = std::make_unique<protobuf::DescriptorPool>(&reflected_);
    pool = reflected_pool_.get();
  } else {
    const std::filesystem::path file = call.proto_file;
    if (!std::filesystem::is_regular_file(file)) bad("no such file");
    // Imports resolve against the import paths, or the file's own folder.
    std::vector<std::string> roots = call.import_paths;
    if (roots.empty()) roots.push_back(file.parent_path().empty() ? "." : file.parent_path().string());
    for (const auto& root : roots) source_tree_.MapPath("", root);
    std::string virtual_file, shadowing;
    if (source_tree_.DiskFileToVirtualFile(file.string(), &virtual_file, &shadowing) !=
        protobuf::compiler::DiskSourceTree::SUCCESS)
      bad("not under an import path");
    check_imports(virtual_file, bad);
    importer_ = std::make_unique<protobuf::compiler::Importer>(&source_tree_, errors_.get());
    if (importer_->Import(virtual_file) == nullptr)
      bad(errors_->first().empty() ? "does not parse" : errors_->first());
    pool = importer_->pool();
  }

  const std::string service_name = service_of(call.method);
  const protobuf::ServiceDescriptor* service = pool->FindServiceByName(service_name);
  if (service == nullptr) bad("no service " + service_name);
  const protobuf::MethodDescriptor* method =
      service->FindMethodByName(call.method.substr(call.method.find('/') + 1));
  if (method == nullptr) bad("no method " + call.method);
  client_streaming_ = method->client_streaming();
  server_streaming_ = method->server_streaming();
  path_ = "/" + service->full_name() + "/" + method->name();

  // A JSON array is several messages: a client-streaming method's stream, or for any other
  // method one per call, in turn (ghz's --data with an array).
  std::vector<std::string> texts;
  // Judged before nlohmann or protobuf reads it: both recurse once per level.
  if (!nesting_within(call.request_json, max_json_nesting))
    throw setting_error("data", "the JSON nests deeper than " + std::to_string(max_json_nesting) + " levels");
  const auto first = call.request_json.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && call.request_json[first] == '[') {
    nlohmann::json array;
    try {
      array = nlohmann::json::parse(call.request_json);
    } catch (const nlohmann::json::parse_error& e) {
      // Where it goes wrong, in the user's terms, not the library's "[json.exception...]".
      throw setting_error("data", "not JSON: it goes wrong at byte " + std::to_string(e.byte));
    }
    for (const auto& element : array)
      texts.push_back(element.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    if (texts.empty() && !client_streaming_)
      throw setting_error("data", "[]: no request message (a list is one message per call, in turn)");
  } else {
    texts.push_back(call.request_json);
  }
  const protobuf::Message* request_prototype = factory_.GetPrototype(method->input_type());
  for (const std::string& text : texts) {
    std::unique_ptr<protobuf::Message> request(request_prototype->New());
    const auto parsed_json = protobuf::util::JsonStringToMessage(text, request.get());
    if (!parsed_json.ok())
      throw setting_error("data", "not a " + method->input_type()->full_name() + " in JSON (" +
                                      std::string(parsed_json.message()) + ")");
    request->SerializeToString(&requests_.emplace_back());
    serialize_message(message_format::json, *request, requests_json_.emplace_back());
  }
  reply_prototype_ = factory_.GetPrototype(method->output_type());
}

grpc_dynamic_method::~grpc_dynamic_method() = default;

bool grpc_dynamic_method::append_reply_json(message_format format, std::string_view bytes,
                                            std::string& json) const {
  std::unique_ptr<protobuf::Message> reply(reply_prototype_->New());
  if (!parse_message(format, bytes, *reply)) return false;
  std::string one;
  if (!protobuf::util::MessageToJsonString(*reply, &one).ok()) return false;
  json.append(one);
  return true;
}

std::vector<std::shared_ptr<const grpc_dynamic_method>> dynamic_methods(
    const std::vector<user_call>& calls,
    const std::function<std::vector<std::string>(const grpc_call&)>& fetch) {
  std::map<std::string, std::vector<std::string>> reflected;  // the server's files, by service
  std::vector<std::shared_ptr<const grpc_dynamic_method>> methods;
  for (const user_call& user : calls) {
    const grpc_call& call = *user.as<grpc_call>();
    if (!call.reflect) {
      methods.push_back(std::make_shared<const grpc_dynamic_method>(call));
      continue;
    }
    auto known = reflected.find(service_of(call.method));
    if (known == reflected.end()) known = reflected.emplace(service_of(call.method), fetch(call)).first;
    methods.push_back(std::make_shared<const grpc_dynamic_method>(call, known->second));
  }
  return methods;
}

}  // namespace wirebench::grpc_wire
