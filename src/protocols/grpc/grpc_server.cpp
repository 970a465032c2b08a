// The gRPC server: one grpc::Server listening on TCP or a Unix socket (path or abstract name),
// serving the Echo service on the engine server_config.engine names (grpc_engine.hpp).
#include <mutex>
#include <stdexcept>

#include "grpc_backend.hpp"
#include "grpc_engine.hpp"

namespace wirebench::grpc_backend {
namespace {

std::unique_ptr<grpc_engine> make_engine(const server_config& c) {
  if (c.engine.empty() || c.engine == "cq") return make_cq_engine(c.threads, c.cpus);
  if (c.engine == "callback") return make_callback_engine();
  throw std::invalid_argument("grpc: unknown server engine '" + c.engine + "' (cq, callback)");
}

class server final : public protocol_server {
 public:
  explicit server(const server_config& c) : config_(c), listen_(c.listen), engine_(make_engine(c)) {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort(grpc_address(c.listen), grpc::InsecureServerCredentials(),
                             c.listen.is_tcp() ? &port : nullptr);
    builder.SetMaxReceiveMessageSize(static_cast<int>(c.max_frame_bytes));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                               static_cast<int>(c.max_concurrent_streams));
    engine_->add_to(builder);
    server_ = builder.BuildAndStart();
    if (!server_ || (c.listen.is_tcp() && port == 0)) {
      if (server_) server_->Shutdown();
      engine_->stop();
      throw std::runtime_error("grpc: cannot listen on " + c.listen.to_string());
    }
    if (c.listen.is_tcp()) listen_.port = static_cast<std::uint16_t>(port);
    engine_->start();
  }
  ~server() override { stop(); }

  endpoint local_endpoint() const override { return listen_; }
  void stop() override {
    std::lock_guard lock(stop_mutex_);
    if (stopped_) return;
    stopped_ = true;
    // Calls in flight get the drain timeout to finish; then gRPC cancels them. Shutdown returns
    // once every call is over, so the engine may then stop its threads.
    server_->Shutdown(std::chrono::system_clock::now() + config_.drain_timeout);
    server_->Wait();
    engine_->stop();
  }
  server_stats stats() const override {
    server_stats s;
    s.requests = engine_->requests();
    return s;
  }

 private:
  server_config config_;
  endpoint listen_;
  std::unique_ptr<grpc_engine> engine_;
  std::unique_ptr<grpc::Server> server_;
  std::mutex stop_mutex_;
  bool stopped_ = false;
};

}  // namespace

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  return std::make_unique<server>(config);
}

}  // namespace wirebench::grpc_backend
