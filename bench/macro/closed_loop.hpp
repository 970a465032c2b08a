#pragma once
// Closed-loop load: W workers, each issuing its next call as soon as its last one completes
// (the job/worker pattern). Every reply is checked against the expected greeting; latencies go
// into one histogram per worker (no sharing on the completion path), merged when read.
#include <atomic>
#include <cstdint>
#include <future>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "wirebench/protocols/protocol.hpp"
#include "wirebench/stats/latency_histogram.hpp"

namespace wirebench::bench {

class closed_loop {
 public:
  closed_loop(protocol_client& client, std::size_t workers, std::size_t payload_bytes = 5);

  // Issues exactly `calls` calls, `workers` at a time; returns when every one has completed.
  void run(std::uint64_t calls);
  void reset();  // forget the latencies and outcomes recorded so far (after a warm-up)

  // Steady load: start() sets every worker calling until stop(), which returns once the calls
  // in flight have completed. Between them, wait_until_completed(n) returns once n calls have
  // completed since reset(), without stopping anybody.
  void start();
  void wait_until_completed(std::uint64_t n);
  void stop();

  latency_histogram latencies() const;
  std::uint64_t completed() const { return completed_.load(); }
  std::uint64_t failed() const { return failed_.load(); }
  std::map<std::string, std::uint64_t> failures() const;

 private:
  struct worker {
    std::string name;
    std::string expected;
    latency_histogram histogram;
    std::chrono::steady_clock::time_point started;
  };
  void launch(std::int64_t calls);  // `calls` in all, `workers` at a time; all_done_ when over
  void issue(std::size_t w);
  void issue_now(std::size_t w);
  void on_reply(std::size_t w, std::error_code ec, std::string_view reply);

  protocol_client& client_;
  std::vector<worker> workers_;
  std::atomic<std::int64_t> to_issue_{0};
  std::atomic<std::size_t> active_{0};
  std::promise<void> all_done_;
  std::atomic<std::uint64_t> completed_{0};
  std::atomic<std::uint64_t> wake_at_{0};  // the completion count a waiter wants to hear of
  std::atomic<std::uint64_t> reached_{0};  // set to it, then notified, by that completion
  std::atomic<std::uint64_t> failed_{0};
  mutable std::mutex failures_mutex_;
  std::map<std::string, std::uint64_t> failures_;
};

// What a benchmark case does with failed calls: end the case with an error, or count them
// (counter `errors`, and the failures by type in the label) and report the successes.
enum class on_failure { fatal, counted };

// The measured part of every closed-loop case: `warmup` calls (connects, warms caches), then
// `batch` completions per benchmark iteration under steady load, then the latency counters and
// the failures. The workers keep calling across iterations: a loop drained at the end of every
// iteration would spend each one's tail with fewer than `workers` calls in flight.
void measure(benchmark::State& state, closed_loop& loop, std::uint64_t warmup, std::uint64_t batch,
             on_failure policy);

}  // namespace wirebench::bench
