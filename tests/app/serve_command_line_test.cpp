// server_process running `wirebench serve` (serve_command_line): a server that cannot start is
// reported with serve's own message, quoted without the CLI's "wirebench: " prefix.
#include "../../src/app/serve_command_line.hpp"

#include <unistd.h>

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "support/loopback_listen.hpp"
#include "wirebench/load/server_process.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

TEST(serve_command_line, a_server_that_cannot_start_is_quoted_without_the_clis_prefix) {
  endpoint taken;
  const int holder = test::listen_on_loopback(taken);  // listening: the port is in use
  server_config config;
  config.listen = taken;
  std::string what = "(started)";
  try {
    server_process server(app::serve_command_line("line", config, WIREBENCH_CLI));
  } catch (const std::exception& e) {
    what = e.what();
  }
  ::close(holder);
  EXPECT_TRUE(what.starts_with("the line server did not start: ")) << what;
  EXPECT_NE(what.find(taken.to_string().substr(6)), std::string::npos) << "names where: " << what;
  EXPECT_EQ(what.find("wirebench: "), std::string::npos) << what;
}

}  // namespace
}  // namespace wirebench
