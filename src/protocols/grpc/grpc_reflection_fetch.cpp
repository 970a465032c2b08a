#include "grpc_reflection_fetch.hpp"

#include <chrono>
#include <future>
#include <map>
#include <memory>

#include <google/protobuf/descriptor.pb.h>

#include "grpc_client_codec.hpp"
#include "grpc_dynamic_method.hpp"
#include "grpc_metadata.hpp"
#include "grpc_reflection.hpp"
#include "../from_codecs/client_from_codecs.hpp"
#include "../http2/h2_backend.hpp"
#include "proto/reflection.pb.h"
#include "wirebench/core/error.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/registry.hpp"
#include "wirebench/tls/tls_client_codec.hpp"
#include "wirebench/tls/tls_context.hpp"

namespace wirebench::grpc_wire {
namespace {

namespace rpb = ::wirebench::reflection;

[[noreturn]] void refuse(const std::string& why) { throw setting_error("reflect", why); }

// One client of ours whose calls are raw reflection requests (grpc_client_codec.hpp).
class reflection_asker {
 public:
  reflection_asker(const client_config& c, const grpc_call& call)
      : address_(c.connect.to_string()),
        wait_(c.connect_timeout + c.reply_timeout + std::chrono::seconds(1)) {
    grpc_client_config settings{.authority = http2::authority_for(c.connect),
                                .https = c.tls.enabled,
                                .timeout = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    c.reply_timeout)};
    settings.raw_path = reflection_v1alpha_path;
    settings.raw_metadata = checked_metadata(call);
    client_codec_factory codecs = [settings] { return make_grpc_client_codec(settings); };
    if (c.tls.enabled)  // as the registry puts TLS under every codec client (ALPN h2 required)
      codecs = tls::tls_client_codecs(std::move(codecs), tls::make_client_context(c.tls, "h2"),
                                      tls_server_name(c), "h2");
    client_config plain = c;
    plain.calls.clear();
    plain.connections = 1;
    client_ = make_client_from_codecs(plain, 1, std::move(codecs));
  }
  ~reflection_asker() { client_->close(); }
  reflection_asker(const reflection_asker&) = delete;
  reflection_asker& operator=(const reflection_asker&) = delete;

  // The server's answer to `request`; refuses when there is none.
  rpb::ServerReflectionResponse ask(const rpb::ServerReflectionRequest& request) {
    struct outcome {
      std::error_code ec;
      std::string reply;
    };
    auto done = std::make_shared<std::promise<outcome>>();
    auto answer = done->get_future();
    // Runs once, on the client's thread; the promise is shared with this waiting thread.
    client_->async_greet(request.SerializeAsString(),
                         [done](std::error_code ec, std::string_view reply) {
                           done->set_value({ec, std::string(reply)});
                         });
    if (answer.wait_for(wait_) != std::future_status::ready)
      refuse("the server at " + address_ + " did not answer");
    const outcome o = answer.get();
    if (error_name(o.ec) == "status_UNIMPLEMENTED")
      refuse("the server at " + address_ + " offers no reflection (grpc.reflection.v1alpha)");
    if (o.ec) refuse("cannot ask the server at " + address_ + ": " + o.ec.message() +
                     (o.reply.empty() ? "" : " (" + o.reply + ")"));
    rpb::ServerReflectionResponse response;
    if (!response.ParseFromString(o.reply)) refuse("an answer that is not a ServerReflectionResponse");
    return response;
  }

 private:
  std::string address_;
  std::chrono::steady_clock::duration wait_;
  std::unique_ptr<protocol_client> client_;
};

}  // namespace

std::vector<std::string> fetch_reflected_files(const client_config& c, const grpc_call& call) {
  const std::string symbol = service_of(call.method);
  reflection_asker asker(c, call);
  std::map<std::string, std::string> files;  // serialized, by file name
  // Every file an answer carries goes into `files`; an error answer refuses, naming `value`.
  auto take = [&](const rpb::ServerReflectionResponse& response, const std::string& value) {
    if (response.has_error_response()) refuse(value + ": " + response.error_response().error_message());
    for (const std::string& bytes : response.file_descriptor_response().file_descriptor_proto()) {
      google::protobuf::FileDescriptorProto file;
      if (!file.ParseFromString(bytes)) refuse("the server sent a file that is not one");
      files.emplace(file.name(), bytes);
    }
  };
  rpb::ServerReflectionRequest request;
  request.set_file_containing_symbol(symbol);
  take(asker.ask(request), symbol);
  // The imports the server did not send with it, each asked for by name until none is missing.
  for (bool asked = true; asked;) {
    asked = false;
    std::vector<std::string> missing;
    for (const auto& [name, bytes] : files) {
      google::protobuf::FileDescriptorProto file;
      file.ParseFromString(bytes);
      for (const std::string& dependency : file.dependency())
        if (!files.contains(dependency)) missing.push_back(dependency);
    }
    for (const std::string& name : missing) {
      if (files.contains(name)) continue;
      request.set_file_by_filename(name);
      take(asker.ask(request), name);
      if (!files.contains(name)) refuse(name + ": the server sent no such file");
      asked = true;
    }
  }
  std::vector<std::string> out;
  for (auto& [name, bytes] : files) out.push_back(std::move(bytes));
  return out;
}

}  // namespace wirebench::grpc_wire
