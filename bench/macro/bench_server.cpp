#include "macro/bench_server.hpp"

#include <filesystem>

#include "../../src/app/serve_command_line.hpp"

namespace wirebench::bench {

bench_server::bench_server(const protocol& p, const server_config& c) {
  if (p.reference.own_process_server) {
    // The wirebench target built beside this benchmark (WIREBENCH_CLI_FROM_HERE: bench/CMakeLists.txt).
    const auto cli = std::filesystem::path(app::this_executable()).parent_path() / WIREBENCH_CLI_FROM_HERE;
    child_ = std::make_unique<server_process>(
        app::serve_command_line(p.name, c, cli.lexically_normal().string()));
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
