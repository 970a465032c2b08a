// The gRPC server: one grpc::Server serving the Echo service on the engine server_config.engine
// names (grpc_engine.hpp), on connections our own listener accepts on TCP or a Unix socket (path
// or abstract name).
//
// Why not gRPC's listening port: gRPC core 1.51's acceptor gives up for good after one failed
// accept4 (EMFILE when descriptors run out), and every later call then times out. Our listener
// waits and accepts again (transport/listener.cpp), and hands each connection to the server with
// grpc::AddInsecureChannelFromFd. Over TLS, gRPC's own port (see the constructor).
#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <stdexcept>

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/server_posix.h>

#include "grpc_backend.hpp"
#include "grpc_engine.hpp"
#include "grpc_tls.hpp"
#include "wirebench/transport/listener.hpp"

namespace wirebench::grpc_backend {
namespace {

std::unique_ptr<grpc_engine> make_engine(const server_config& c) {
  if (c.engine.empty() || c.engine == "cq") return make_cq_engine(c.threads, c.cpus);
  if (c.engine == "callback") return make_callback_engine();
  throw std::invalid_argument("grpcpp: unknown server engine '" + c.engine + "' (cq, callback)");
}

class server final : public protocol_server {
 public:
  explicit server(const server_config& c)
      : config_(c), engine_(make_engine(c)), accept_pool_({1, {}, "grpc-accept"}) {
    // Server reflection (grpc.reflection.v1alpha), as grpcurl and ghz expect to find it: they
    // can then call the Echo service without its .proto. Idempotent, process-wide.
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
    grpc::ServerBuilder builder;  // no listening port: connections come from listener_
    builder.SetMaxReceiveMessageSize(static_cast<int>(c.max_frame_bytes));
    builder.AddChannelArgument(GRPC_ARG_MAX_CONCURRENT_STREAMS,
                               static_cast<int>(count_option_value(
                                   c.options, "--max-streams", default_max_streams, 1, max_streams)));
    // A connection handed over from a descriptor skips the handshake deadline gRPC's own
    // listener sets: one that never speaks (or stops) would hold its descriptor for good. Closed
    // after the idle timeout instead, as our other servers close theirs.
    builder.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, grpc_milliseconds(c.idle_timeout));
    if (c.keepalive.enabled()) {  // gRPC's own keep-alive, idle connections included
      builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, grpc_milliseconds(c.keepalive.interval));
      builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, grpc_milliseconds(c.keepalive.timeout));
      builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
      builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
    }
    engine_->add_to(builder);
    // TLS: gRPC's own listening port, the one way grpc++ 1.51 serves with credentials (a
    // descriptor can only be added in plaintext). Its acceptor's give-up on EMFILE (above) then
    // applies; the bounded tests of descriptor floods run in plaintext.
    int tls_port = 0;
    if (c.tls.enabled)
      builder.AddListeningPort(grpc_address(c.listen), server_credentials(c.tls), &tls_port);
    server_ = builder.BuildAndStart();
    if (!server_ || (c.tls.enabled && c.listen.is_tcp() && tls_port == 0)) {
      if (server_) server_->Shutdown();
      engine_->stop();
      throw std::runtime_error("grpcpp: cannot start a server for " + c.listen.to_string());
    }
    engine_->start();
    if (c.tls.enabled) {
      listen_ = c.listen;
      if (listen_.is_tcp()) listen_.port = static_cast<std::uint16_t>(tls_port);
      return;
    }
    try {
      // Runs on the accept thread, which owns `socket`; the server takes its descriptor.
      listener_ = std::make_unique<listener>(accept_pool_, c.listen, [this](stream_socket socket) {
        asio::error_code ec;
        const int fd = socket.release(ec);
        if (ec || fd < 0) return;
        // gRPC's endpoint expects a non-blocking descriptor and owns (closes) it from here on.
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        grpc::AddInsecureChannelFromFd(server_.get(), fd);
      });
    } catch (...) {
      server_->Shutdown();
      engine_->stop();
      throw;  // the listener names the endpoint it could not bind
    }
    listen_ = listener_->local_endpoint();
  }
  ~server() override { stop(); }

  endpoint local_endpoint() const override { return listen_; }
  void stop() override {
    std::lock_guard lock(stop_mutex_);
    if (stopped_) return;
    stopped_ = true;
    // No new connection reaches the server once the accept thread has stopped.
    if (listener_) listener_->close();
    accept_pool_.stop();
    // Calls in flight get the grace to finish; then gRPC cancels them. Shutdown returns
    // once every call is over, so the engine may then stop its threads.
    server_->Shutdown(std::chrono::system_clock::now() + config_.grace);
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
  io_pool accept_pool_;  // one thread: accepts and hands sockets over
  std::unique_ptr<listener> listener_;  // null over TLS
  std::mutex stop_mutex_;
  bool stopped_ = false;
};

}  // namespace

std::vector<protocol_option> server_options() {
  return {count_option("--max-streams", 1, max_streams,
                       "HTTP/2: SETTINGS_MAX_CONCURRENT_STREAMS (default 100)")};
}

void fit_server_to_load(server_config& config, std::size_t calls) {
  config.options.insert_or_assign(
      "--max-streams", std::to_string(std::clamp<std::uint64_t>(calls, default_max_streams, max_streams)));
}

std::unique_ptr<protocol_server> make_server(const server_config& config) {
  return std::make_unique<server>(config);
}

}  // namespace wirebench::grpc_backend
