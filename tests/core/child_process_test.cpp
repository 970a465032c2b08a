// child_process: what a child gets (its outputs, the descriptors passed, its CPUs, nothing else of
// ours), its exit status as a shell gives it, and a stop that ends even a child deaf to SIGTERM.
#include "wirebench/core/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <string>

#include <gtest/gtest.h>

#include "support/read_file.hpp"
#include "support/temp_dir.hpp"

namespace wirebench {
namespace {

using namespace std::chrono_literals;

using test::read_file;

TEST(child_process, writes_its_outputs_where_asked_and_exits_with_its_status) {
  test::temp_dir dir("child-outputs");
  child_process child({.argv = {"sh", "-c", "echo out; echo err >&2; exit 3"},
                       .stdout_path = dir.path("out"),
                       .stderr_path = dir.path("err")});
  EXPECT_EQ(child.wait_for_exit(10s), 3);
  EXPECT_EQ(child.pid(), -1) << "reaped";
  EXPECT_EQ(child.wait_for_exit(0s), 3) << "the status stays";
  EXPECT_EQ(read_file(dir.path("out")), "out\n");
  EXPECT_EQ(read_file(dir.path("err")), "err\n");
}

TEST(child_process, gets_the_descriptors_passed_and_no_other_of_ours) {
  int passed[2], leaked[2];
  ASSERT_EQ(::pipe2(passed, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe(leaked), 0);  // not close-on-exec: only the child's start keeps it from it
  const std::string probe = "echo hello >&3; test -e /proc/self/fd/" + std::to_string(leaked[0]) +
                            " && echo leaked >&3; exit 0";
  child_process child({.argv = {"sh", "-c", probe}, .pass_fds = {{passed[1], 3}}});
  ::close(passed[1]);
  EXPECT_EQ(child.wait_for_exit(10s), 0);
  char buffer[64];
  const ssize_t n = ::read(passed[0], buffer, sizeof buffer);
  EXPECT_EQ(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0), "hello\n");
  for (int fd : {passed[0], leaked[0], leaked[1]}) ::close(fd);
}

TEST(child_process, runs_on_the_cpus_asked_for) {
  test::temp_dir dir("child-cpus");
  child_process child({.argv = {"grep", "Cpus_allowed_list", "/proc/self/status"},
                       .stdout_path = dir.path("out"),
                       .cpus = {0}});
  EXPECT_EQ(child.wait_for_exit(10s), 0);
  EXPECT_EQ(read_file(dir.path("out")), "Cpus_allowed_list:\t0\n");
}

TEST(child_process, a_program_that_cannot_run_exits_127) {
  child_process child({.argv = {"/nonexistent/wirebench-no-such-program"}});
  EXPECT_EQ(child.wait_for_exit(10s), 127);
}

TEST(child_process, stop_ends_a_child_with_sigterm) {
  child_process child({.argv = {"sleep", "30"}});
  EXPECT_EQ(child.wait_for_exit(0s), -1) << "still running";
  EXPECT_EQ(child.stop(5s), 128 + SIGTERM);
  EXPECT_EQ(child.stop(5s), 128 + SIGTERM) << "idempotent";
}

TEST(child_process, stop_kills_a_child_that_ignores_sigterm_after_the_grace) {
  // The shell itself spins (a builtin loop): no grandchild is left when it is killed.
  child_process child({.argv = {"sh", "-c", "trap '' TERM; echo ready; while :; do :; done"}});
  std::this_thread::sleep_for(200ms);  // the trap is set
  EXPECT_EQ(child.stop(200ms), 128 + SIGKILL);
}

}  // namespace
}  // namespace wirebench
