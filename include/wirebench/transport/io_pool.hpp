#pragma once
// N threads, each running its own io_context; a connection lives on one of them for its whole life
// (no locks on its state, no cross-core cache traffic). Optionally pins thread i to cpus[i % size].
// Or, made from a caller's io_context, that one loop and no thread: whoever runs it runs the pool.
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <asio/executor_work_guard.hpp>
#include <asio/io_context.hpp>

#include "wirebench/core/api.hpp"

namespace wirebench {

/// Settings of an io_pool.
struct io_pool_options {
  /// Number of threads (at least 1), each with its own io_context.
  std::size_t threads = 1;
  std::vector<int> cpus;   // empty: no pinning
  std::string name = "io";  // thread name prefix (visible in top/perf)
};

/// N threads, each running its own io_context (see above).
class WIREBENCH_API io_pool {
 public:
  /// Starts the threads; throws std::invalid_argument for 0 threads.
  explicit io_pool(io_pool_options options = {});
  /// The caller's io_context as the pool's one loop, with no thread: the caller runs it (on one
  /// thread at a time, as every loop of a pool is). stop_loop() and join() then do nothing: the
  /// pool never stops a loop it does not own.
  explicit io_pool(asio::io_context& external);
  /// Stops the pool (stop()). Never on one of the pool's threads.
  ~io_pool();
  /// Not copyable.
  io_pool(const io_pool&) = delete;
  /// Not copyable.
  io_pool& operator=(const io_pool&) = delete;

  /// Number of threads (and io_contexts).
  std::size_t size() const { return slots_.size(); }
  /// The io_context of thread `i` (i < size()).
  asio::io_context& context(std::size_t i) { return *slots_[i]->context; }
  /// True when the pool runs the caller's io_context (see above), not threads of its own.
  bool external() const { return external_; }
  /// Round robin over the threads: where the next connection goes.
  asio::io_context& next();

  /// Closes every connection still open on the pool (reason errc::shutting_down), stops every loop
  /// and joins every thread. Idempotent, from any thread. On one of the pool's own threads it
  /// only asks (stop_loop() for each) and returns: the threads are joined by a later stop() from
  /// another thread, or the destructor, which must not run on the pool's threads.
  void stop();
  /// Asks loop `i` to close its connections (errc::shutting_down) and stop, after everything
  /// already posted to it. Returns at once; any thread.
  void stop_loop(std::size_t i);
  /// Waits for every thread to end, each after its loop was stopped (stop_loop()). On one of the
  /// pool's own threads it returns at once (a later join() or stop() elsewhere joins). Idempotent.
  void join();
  /// True when called on one of the pool's threads.
  bool running_in_pool() const;

 private:
  struct slot {
    std::unique_ptr<asio::io_context> own;  // null for the caller's
    asio::io_context* context;
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
    std::thread thread;
  };
  std::vector<std::unique_ptr<slot>> slots_;
  bool external_ = false;
  std::atomic<std::size_t> next_{0};
  std::once_flag stop_asked_;
  std::once_flag joined_;
};

/// Parses "0,1" or "0-3" into CPU numbers; throws std::invalid_argument on garbage (start-up).
WIREBENCH_API std::vector<int> parse_cpu_list(std::string_view text);
/// Pins the calling thread to the given CPUs (no-op for an empty list). Returns false on failure.
WIREBENCH_API bool pin_current_thread(const std::vector<int>& cpus);

}  // namespace wirebench
