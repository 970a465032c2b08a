#pragma once
// C gRPC channels to one server, each with its own connection: gRPC would otherwise share one
// subchannel (one TCP connection) between channels with equal arguments.
#include <memory>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "grpc_backend.hpp"
#include "grpc_tls.hpp"

namespace wirebench::grpc_backend {

inline std::vector<std::shared_ptr<grpc::Channel>> open_channels(const client_config& c) {
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  const auto credentials = channel_credentials(c.tls);
  for (std::size_t i = 0; i < std::max<std::size_t>(1, c.connections); ++i) {
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    args.SetInt("wirebench.channel_index", static_cast<int>(i));  // keeps them distinct
    args.SetMaxReceiveMessageSize(static_cast<int>(c.max_frame_bytes));
    // The name checked against the server's certificate (and sent as SNI), as our clients use it.
    if (c.tls.enabled && !c.tls.server_name.empty()) args.SetSslTargetNameOverride(c.tls.server_name);
    if (c.keepalive.enabled()) {
      args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, grpc_milliseconds(c.keepalive.interval));
      args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, grpc_milliseconds(c.keepalive.timeout));
      args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, c.keepalive.without_calls ? 1 : 0);
      // Else gRPC stops pinging after two pings with no data between them.
      args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
    }
    channels.push_back(grpc::CreateCustomChannel(grpc_address(c.connect),
                                                 credentials, args));
  }
  return channels;
}

}  // namespace wirebench::grpc_backend
