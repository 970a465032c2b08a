// `mux`: the greet call over our multiplexed protocol (docs/PROTOCOLS.md): many calls in flight
// on one connection, answered in completion order and matched by request id.
#include "../common/backend_support.hpp"
#include "wirebench/mux/mux_client_codec.hpp"
#include "wirebench/mux/mux_server.hpp"
#include "wirebench/protocols/registry.hpp"

namespace wirebench {
namespace {

class mux_greet_server final : public protocol_server {
 public:
  explicit mux_greet_server(const server_config& c)
      : server_(make_config(c), [](std::string_view name, std::error_code&) {
          std::string reply = "hello, ";
          reply.append(name);
          return reply;
        }) {}
  endpoint local_endpoint() const override { return server_.local_endpoint(); }
  void stop() override { server_.stop(); }
  server_stats stats() const override { return server_.stats(); }

 private:
  static mux_server_config make_config(const server_config& c) {
    mux_server_config m;
    m.listen = c.listen;
    m.threads = c.threads;
    m.workers = c.workers;
    m.cpus = c.cpus;
    m.service_time = c.service_time;
    m.max_frame_bytes = c.max_frame_bytes;
    m.max_connections = c.max_connections;
    m.idle_timeout = c.idle_timeout;
    m.read_timeout = c.read_timeout;
    m.write_timeout = c.write_timeout;
    m.drain_timeout = c.drain_timeout;
    return m;
  }
  mux_server server_;
};

client_codec_factory mux_client_codecs(const client_config& c) {
  return [max = c.max_frame_bytes] { return make_mux_client_codec(max); };
}

}  // namespace

void register_mux_protocol(protocol_registry& registry) {
  registry.add({
      .name = "mux",
      .summary = "length-prefixed frames with request ids: many calls in flight, any order",
      .multiplexed = true,
      .make_server = [](const server_config& c) -> std::unique_ptr<protocol_server> {
        return std::make_unique<mux_greet_server>(c);
      },
      .make_client = [](const client_config& c) -> std::unique_ptr<protocol_client> {
        return make_engine_client(c, 1024, mux_client_codecs(c));
      },
      .client_codecs = mux_client_codecs,
  });
}

}  // namespace wirebench
