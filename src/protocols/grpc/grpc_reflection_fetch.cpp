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
#include "grpc_reflection_walk.hpp"
#include "../from_codecs/client_from_codecs.hpp"
#include "../http2/h2_backend.hpp"
#include "proto/reflection.pb.h"
#include "wirebench/core/error.hpp"
#include "wirebench/core/setting_error.hpp"
#include "wirebench/protocols/peer_text.hpp"
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
        wait_(c.connect_timeout + c.reply_timeout + std::chrono::seconds(1)),
        interrupted_(c.interrupted) {
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
    // Waited for in steps, so that an interrupted run's start-up ends now.
    const auto give_up = std::chrono::steady_clock::now() + wait_;
    while (answer.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      if (interrupted_ != nullptr && interrupted_->load() != 0)
        refuse("interrupted while waiting for the server at " + address_);
      if (std::chrono::steady_clock::now() > give_up) refuse("the server at " + address_ + " did not answer");
    }
    const outcome o = answer.get();
    if (error_name(o.ec) == "status_UNIMPLEMENTED")
      refuse("the server at " + address_ + " offers no reflection (grpc.reflection.v1alpha)");
    if (o.ec) refuse("cannot ask the server at " + address_ + ": " + o.ec.message() +
                     (o.reply.empty() ? "" : " (" + peer_text(o.reply) + ")"));
    rpb::ServerReflectionResponse response;
    if (!response.ParseFromString(o.reply)) refuse("an answer that is not a ServerReflectionResponse");
    return response;
  }

 private:
  std::string address_;
  std::chrono::steady_clock::duration wait_;
  const std::atomic<int>* interrupted_;
  std::unique_ptr<protocol_client> client_;
};

}  // namespace

std::vector<std::string> fetch_reflected_files(const client_config& c, const grpc_call& call) {
  reflection_asker asker(c, call);
  return walk_reflected_files(service_of(call.method), [&](bool by_symbol, const std::string& value) {
    rpb::ServerReflectionRequest request;
    if (by_symbol) request.set_file_containing_symbol(value);
    else request.set_file_by_filename(value);
    rpb::ServerReflectionResponse response = asker.ask(request);
    reflection_answer answer;
    if (response.has_error_response()) answer.error = response.error_response().error_message();
    for (std::string& bytes : *response.mutable_file_descriptor_response()->mutable_file_descriptor_proto())
      answer.files.push_back(std::move(bytes));
    return answer;
  });
}

}  // namespace wirebench::grpc_wire
