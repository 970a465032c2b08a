// `wirebench serve` stopped by signals, as a user (or `wirebench run`) stops it: calls in flight
// at SIGTERM finish ok within the grace; a second signal cuts them at once; --grace 0s stops at
// once. Its last line counts the calls finished in the grace and those cut. The server is mux
// with a worker pool and a fixed service time, so that calls are surely in flight at the signal.
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>

#include <gtest/gtest.h>

#include "support/child_process.hpp"
#include "support/read_file.hpp"
#include "support/temp_dir.hpp"
#include "wirebench/core/error.hpp"
#include "wirebench/protocols/registry.hpp"
#include "test_paths.h"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

using test::read_file;

struct outcomes {
  std::atomic<int> ok{0}, failed{0}, done{0};
  std::error_code last_error;  // written before `done` is incremented
};

class serve_stop : public ::testing::Test {
 protected:
  // Starts `serve -p mux` with `service_time` per call on 2 workers and `extra` flags, and waits
  // until it listens.
  void start(const std::string& service_time, std::vector<std::string> extra = {}) {
    socket_ = "unix:" + dir_.path("mux.sock");
    std::vector<std::string> argv = {WIREBENCH_CLI, "serve", "-p", "mux", "--listen", socket_,
                                     "--workers", "2", "--service-time", service_time};
    argv.insert(argv.end(), extra.begin(), extra.end());
    server_.emplace(argv, dir_.path("stdout"), dir_.path("stderr"));
    for (int i = 0; i < 1000 && read_file(dir_.path("stderr")).find("serving") == std::string::npos;
         ++i)
      std::this_thread::sleep_for(10ms);
    ASSERT_NE(read_file(dir_.path("stderr")).find("serving"), std::string::npos);
    client_config cc;
    cc.connect = endpoint::parse_or_throw(socket_);
    cc.depth = 64;
    client_ = protocol_registry::builtin().find("mux")->make_client(cc);
  }
  // `n` calls, left in flight.
  void call(int n) {
    for (int i = 0; i < n; ++i)
      client_->async_greet("c" + std::to_string(i), [this](std::error_code ec, std::string_view) {
        if (ec) {
          seen_.last_error = ec;
          ++seen_.failed;
        } else {
          ++seen_.ok;
        }
        ++seen_.done;
      });
  }
  void wait_for_calls(int n) {
    for (int i = 0; i < 2000 && seen_.done.load() < n; ++i) std::this_thread::sleep_for(5ms);
    ASSERT_EQ(seen_.done.load(), n) << "every call completes";
  }
  std::string last_line() {
    std::string err = read_file(dir_.path("stderr"));
    while (!err.empty() && err.back() == '\n') err.pop_back();
    return err.substr(err.rfind('\n') + 1);
  }

  test::temp_dir dir_{"serve-stop"};
  std::string socket_;
  std::optional<test::child_process> server_;
  std::unique_ptr<protocol_client> client_;
  outcomes seen_;
};

TEST_F(serve_stop, calls_in_flight_at_sigterm_finish_ok) {
  start("fixed:400ms");
  call(8);
  std::this_thread::sleep_for(150ms);  // taken in, computing
  ::kill(server_->pid(), SIGTERM);
  wait_for_calls(8);
  EXPECT_EQ(seen_.ok.load(), 8);
  EXPECT_EQ(server_->wait_for_exit(10s), 0);
  EXPECT_NE(last_line().find("8 calls finished in the grace, 0 cut"), std::string::npos)
      << read_file(dir_.path("stderr"));
}

TEST_F(serve_stop, a_second_signal_cuts_the_calls_in_flight) {
  start("fixed:5s");
  call(8);
  std::this_thread::sleep_for(150ms);
  ::kill(server_->pid(), SIGTERM);
  std::this_thread::sleep_for(150ms);  // in its grace
  ::kill(server_->pid(), SIGTERM);
  wait_for_calls(8);
  EXPECT_EQ(seen_.failed.load(), 8) << "cut, not answered after the 5 s of service";
  EXPECT_EQ(seen_.last_error, errc::connection_closed) << seen_.last_error.message();
  EXPECT_EQ(server_->wait_for_exit(10s), 0);
  const std::string err = read_file(dir_.path("stderr"));
  EXPECT_NE(err.find("SIGTERM again"), std::string::npos) << err;
  EXPECT_NE(last_line().find("0 calls finished in the grace, 8 cut"), std::string::npos) << err;
}

TEST_F(serve_stop, no_grace_stops_at_once) {
  start("fixed:5s", {"--grace", "0s"});
  call(8);
  std::this_thread::sleep_for(150ms);
  ::kill(server_->pid(), SIGINT);
  wait_for_calls(8);
  EXPECT_EQ(seen_.failed.load(), 8);
  EXPECT_EQ(server_->wait_for_exit(10s), 0);
  EXPECT_NE(last_line().find("stopped on SIGINT"), std::string::npos) << last_line();
  EXPECT_NE(last_line().find("0 calls finished in the grace, 8 cut"), std::string::npos)
      << last_line();
}

}  // namespace
}  // namespace wirebench
