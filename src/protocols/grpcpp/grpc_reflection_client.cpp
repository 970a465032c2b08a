#include "grpc_reflection_client.hpp"

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <stdexcept>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/message.h>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>

#include "grpc_backend.hpp"
#include "grpc_tls.hpp"
#include "../grpc/grpc_reflection_walk.hpp"
#include "wirebench/core/setting_error.hpp"

namespace wirebench::grpc_backend {
namespace {

namespace protobuf = google::protobuf;

constexpr const char* reflection_method = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";

[[noreturn]] void refuse(const std::string& why) { throw setting_error("reflect", why); }

const protobuf::Descriptor* reflection_type(const char* name) {
  const protobuf::Descriptor* type =
      protobuf::DescriptorPool::generated_pool()->FindMessageTypeByName(std::string("grpc.reflection.v1alpha.") + name);
  if (type == nullptr) refuse("this build has no reflection messages (libgrpc++_reflection)");
  return type;
}

// The TLS name override (--tls-server-name, --resolve), as the call channels have it.
grpc::ChannelArguments channel_arguments(const client_config& c) {
  grpc::ChannelArguments args;
  if (c.tls.enabled && !c.tls.server_name.empty()) args.SetSslTargetNameOverride(c.tls.server_name);
  return args;
}

// One reflection stream, driven one operation at a time on a queue of its own (start-up only).
class reflection_stream {
 public:
  explicit reflection_stream(const client_config& c)
      : address_(grpc_address(c.connect)),
        interrupted_(c.interrupted),
        stub_(grpc::CreateCustomChannel(address_, channel_credentials(c.tls), channel_arguments(c))) {
    context_.set_deadline(std::chrono::system_clock::now() +
                          std::chrono::duration_cast<std::chrono::system_clock::duration>(c.connect_timeout));
    stream_ = stub_.PrepareCall(&context_, reflection_method, &queue_);
    stream_->StartCall(this);
    if (!next()) fail();
  }
  ~reflection_stream() {
    if (!finished_) {
      context_.TryCancel();
      stream_->Finish(&status_, this);
      next();
    }
    queue_.Shutdown();
    void* tag = nullptr;
    bool ok = false;
    while (queue_.Next(&tag, &ok)) {
    }
  }
  reflection_stream(const reflection_stream&) = delete;
  reflection_stream& operator=(const reflection_stream&) = delete;

  // Sends `request` (a ServerReflectionRequest) and returns the server's answer to it.
  std::unique_ptr<protobuf::Message> ask(const protobuf::Message& request) {
    std::string bytes;
    request.SerializeToString(&bytes);
    grpc::Slice slice(bytes);
    grpc::ByteBuffer out(&slice, 1);
    stream_->Write(out, this);
    if (!next()) fail();
    grpc::ByteBuffer in;
    stream_->Read(&in, this);
    if (!next()) fail();
    grpc::Slice joined;
    if (!in.DumpToSingleSlice(&joined).ok()) refuse("an unreadable answer");
    std::unique_ptr<protobuf::Message> reply(
        protobuf::MessageFactory::generated_factory()->GetPrototype(reflection_type("ServerReflectionResponse"))->New());
    if (!reply->ParseFromArray(joined.begin(), static_cast<int>(joined.size())))
      refuse("an answer that is not a ServerReflectionResponse");
    return reply;
  }

 private:
  // The next operation's completion, waited for in steps so that an interrupted run's start-up
  // ends now: the call is cancelled, and the operation then completes (not ok) at once.
  bool next() {
    for (;;) {
      void* tag = nullptr;
      bool ok = false;
      const auto step = std::chrono::system_clock::now() + std::chrono::milliseconds(100);
      switch (queue_.AsyncNext(&tag, &ok, step)) {
        case grpc::CompletionQueue::GOT_EVENT: return ok;
        case grpc::CompletionQueue::SHUTDOWN: return false;
        case grpc::CompletionQueue::TIMEOUT:
          if (!cancelled_ && interrupted_ != nullptr && interrupted_->load() != 0) {
            cancelled_ = true;
            context_.TryCancel();
          }
      }
    }
  }
  // The stream broke: its status says why (no reflection: UNIMPLEMENTED; no server: UNAVAILABLE).
  [[noreturn]] void fail() {
    stream_->Finish(&status_, this);
    next();
    finished_ = true;
    if (cancelled_) refuse("interrupted while waiting for the server at " + address_);
    if (status_.error_code() == grpc::StatusCode::UNIMPLEMENTED)
      refuse("the server at " + address_ + " offers no reflection (grpc.reflection.v1alpha)");
    refuse("cannot ask the server at " + address_ + ": " + status_.error_message());
  }

  const std::string address_;
  const std::atomic<int>* interrupted_;  // the run's signal (client_config::interrupted)
  bool cancelled_ = false;               // by that signal
  grpc::GenericStub stub_;
  grpc::CompletionQueue queue_;
  grpc::ClientContext context_;
  std::unique_ptr<grpc::GenericClientAsyncReaderWriter> stream_;
  grpc::Status status_;
  bool finished_ = false;
};

}  // namespace

std::vector<std::string> reflected_files(const client_config& c, const std::string& symbol) {
  const protobuf::Descriptor* request_type = reflection_type("ServerReflectionRequest");
  const protobuf::Message* prototype = protobuf::MessageFactory::generated_factory()->GetPrototype(request_type);
  reflection_stream stream(c);
  return grpc_wire::walk_reflected_files(symbol, [&](bool by_symbol, const std::string& value) {
    std::unique_ptr<protobuf::Message> request(prototype->New());
    const char* field = by_symbol ? "file_containing_symbol" : "file_by_filename";
    request->GetReflection()->SetString(request.get(), request_type->FindFieldByName(field), value);
    const std::unique_ptr<protobuf::Message> reply = stream.ask(*request);
    const protobuf::Descriptor* type = reply->GetDescriptor();
    const protobuf::Reflection* reflection = reply->GetReflection();
    grpc_wire::reflection_answer answer;
    if (reflection->HasField(*reply, type->FindFieldByName("error_response"))) {
      const protobuf::Message& error = reflection->GetMessage(*reply, type->FindFieldByName("error_response"));
      answer.error = error.GetReflection()->GetString(error, error.GetDescriptor()->FindFieldByName("error_message"));
      return answer;
    }
    const protobuf::Message& found = reflection->GetMessage(*reply, type->FindFieldByName("file_descriptor_response"));
    const protobuf::FieldDescriptor* protos = found.GetDescriptor()->FindFieldByName("file_descriptor_proto");
    for (int i = 0; i < found.GetReflection()->FieldSize(found, protos); ++i)
      answer.files.push_back(found.GetReflection()->GetRepeatedString(found, protos, i));
    return answer;
  });
}

}  // namespace wirebench::grpc_backend
