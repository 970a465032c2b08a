#include "macro/bench_server.hpp"

#include "../../src/app/serve_command_line.hpp"

namespace wirebench::bench {

bench_server::bench_server(const protocol& p, const server_config& c) {
  if (p.own_process_server) {
    // WIREBENCH_CLI_PATH: the wirebench target built beside this benchmark.
    child_ = std::make_unique<server_process>(
        app::serve_command_line(p.name, c, WIREBENCH_CLI_PATH));
  } else {
    in_process_ = p.make_server(c);
  }
}

endpoint bench_server::local_endpoint() const {
  return child_ ? child_->local_endpoint() : in_process_->local_endpoint();
}

void bench_server::stop() {
  if (child_) child_->stop();
  if (in_process_) in_process_->stop();
}

}  // namespace wirebench::bench
