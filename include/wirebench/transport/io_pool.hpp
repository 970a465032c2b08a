#pragma once
// N threads, each running its own io_context; a connection lives on one of them for its whole life
// (no locks on its state, no cross-core cache traffic). Optionally pins thread i to cpus[i % size].
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>

namespace wirebench {

/// Settings of an io_pool.
struct io_pool_options {
  /// Number of threads (at least 1), each with its own io_context.
  std::size_t threads = 1;
  std::vector<int> cpus;   // empty: no pinning
  std::string name = "io";  // thread name prefix (visible in top/perf)
};

/// N threads, each running its own io_context (see above).
class io_pool {
 public:
  /// Starts the threads; throws std::invalid_argument for 0 threads.
  explicit io_pool(io_pool_options options = {});
  /// Stops the pool (stop()).
  ~io_pool();
  /// Not copyable.
  io_pool(const io_pool&) = delete;
  /// Not copyable.
  io_pool& operator=(const io_pool&) = delete;

  /// Number of threads (and io_contexts).
  std::size_t size() const { return slots_.size(); }
  /// The io_context of thread `i` (i < size()).
  asio::io_context& context(std::size_t i) { return slots_[i]->context; }
  /// Round robin over the threads: where the next connection goes.
  asio::io_context& next();

  /// Closes every connection still open on the pool (reason errc::shutting_down), stops every loop
  /// and joins every thread. Idempotent; safe from any thread except the pool's own.
  void stop();
  /// True when called on one of the pool's threads.
  bool running_in_pool() const;

 private:
  struct slot {
    asio::io_context context{1};  // one thread per context: asio may skip its locking
    asio::executor_work_guard<asio::io_context::executor_type> work{context.get_executor()};
    std::thread thread;
  };
  std::vector<std::unique_ptr<slot>> slots_;
  std::atomic<std::size_t> next_{0};
  std::once_flag stopped_;
};

/// Parses "0,1" or "0-3" into CPU numbers; throws std::invalid_argument on garbage (start-up).
std::vector<int> parse_cpu_list(std::string_view text);
/// Pins the calling thread to the given CPUs (no-op for an empty list). Returns false on failure.
bool pin_current_thread(const std::vector<int>& cpus);

}  // namespace wirebench
