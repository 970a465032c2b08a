// CPU accounting: the /proc/<pid>/stat parser, and that a process tree's time includes children.
#include "wirebench/load/cpu_usage.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace wirebench {
namespace {

TEST(ProcStat, ReadsParentAndTimesPastACommandNameWithSpacesAndParentheses) {
  const std::string line =
      "4242 (a (weird) name) S 17 4242 4242 0 -1 4194560 500 0 0 0 123 45 6 7 20 0 3 0 1000 "
      "100000 200 18446744073709551615";
  const auto f = parse_proc_stat(line);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->parent, 17);
  EXPECT_EQ(f->user_ticks, 123u);
  EXPECT_EQ(f->system_ticks, 45u);
}

TEST(ProcStat, RejectsTruncatedOrGarbledLines) {
  EXPECT_FALSE(parse_proc_stat(""));
  EXPECT_FALSE(parse_proc_stat("12 (x) S 1 2 3"));
  EXPECT_FALSE(parse_proc_stat("12 (x) S one 2 3 4 5 6 7 8 9 10 11 12 13 14"));
  EXPECT_FALSE(parse_proc_stat("no parenthesis at all"));
}

// Burns CPU on this thread until this process has used `seconds` more of it.
void burn(double seconds) {
  const double until = process_cpu_time().total() + seconds;
  volatile std::uint64_t sink = 0;
  while (process_cpu_time().total() < until)
    for (int i = 0; i < 100000; ++i) sink = sink + static_cast<std::uint64_t>(i);
}

// A process tree's CPU as run_sweep samples a server's: its processes found, then read.
std::optional<cpu_time> tree_cpu_time(pid_t root) { return processes_cpu_time(process_tree(root)); }

TEST(CpuUsage, SeesThisProcessWork) {
  const auto before = tree_cpu_time(getpid());
  ASSERT_TRUE(before);
  burn(0.2);
  const auto after = tree_cpu_time(getpid());
  ASSERT_TRUE(after);
  EXPECT_GE(after->total() - before->total(), 0.15);  // clock ticks are 10 ms
}

// Finer than /proc's 10 ms clock ticks: 3 ms of work shows as at least 3 ms.
TEST(CpuUsage, SeesLessThanAClockTickOfWork) {
  const auto before = tree_cpu_time(getpid());
  ASSERT_TRUE(before);
  const double self_before = process_cpu_time().total();
  burn(0.003);
  const double self_used = process_cpu_time().total() - self_before;
  const auto after = tree_cpu_time(getpid());
  ASSERT_TRUE(after);
  // getrusage rounds to microseconds: allow for that, not for a tick.
  EXPECT_GE(after->total() - before->total(), self_used - 1e-5);
}

TEST(CpuUsage, CountsAChildProcessInTheTree) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the child spins until killed
    volatile std::uint64_t sink = 0;
    while (true) sink = sink + 1;
  }
  // Wait (boundedly) until the tree has used 0.2 s more than this process itself.
  const double self_before = process_cpu_time().total();
  const double tree_before = tree_cpu_time(getpid())->total();
  double children = 0;
  for (int i = 0; i < 500 && children < 0.2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    children = (tree_cpu_time(getpid())->total() - tree_before) -
               (process_cpu_time().total() - self_before);
  }
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  EXPECT_GE(children, 0.2);
}

TEST(CpuUsage, AProcessThatIsGoneHasNoTime) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  waitpid(child, nullptr, 0);
  EXPECT_FALSE(tree_cpu_time(child));
}

}  // namespace
}  // namespace wirebench
