#include "macro/bench_server.hpp"

#include <stdexcept>

namespace wirebench::bench {
namespace {

server_process_options child_options(const protocol& p, const server_config& c) {
  const server_config defaults;
  if (c.workers != defaults.workers || c.service_time.type != defaults.service_time.type ||
      c.stream_window_bytes != defaults.stream_window_bytes ||
      c.connection_window_bytes != defaults.connection_window_bytes ||
      !c.tls.certificate_file.empty() || !c.tls.private_key_file.empty())
    throw std::invalid_argument("bench_server: a setting `wirebench serve` cannot take, for " + p.name);
  server_process_options o;
  o.program = WIREBENCH_CLI_PATH;  // the wirebench target built beside this benchmark
  o.protocol = p.name;
  o.listen = c.listen.to_string();
  o.threads = c.threads;
  o.engine = c.engine;
  for (int cpu : c.cpus) {
    if (!o.cpus.empty()) o.cpus += ',';
    o.cpus += std::to_string(cpu);
  }
  o.max_streams = c.max_concurrent_streams;
  o.tls = c.tls.enabled;
  return o;
}

}  // namespace

bench_server::bench_server(const protocol& p, const server_config& c) {
  if (p.own_process_server)
    child_ = std::make_unique<server_process>(child_options(p, c));
  else
    in_process_ = p.make_server(c);
}

endpoint bench_server::local_endpoint() const {
  return child_ ? child_->local_endpoint() : in_process_->local_endpoint();
}

void bench_server::stop() {
  if (child_) child_->stop();
  if (in_process_) in_process_->stop();
}

}  // namespace wirebench::bench
