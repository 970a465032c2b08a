#pragma once
// The closed loop: W workers, each starting its next call the moment its last one completes (the
// job/worker pattern). One driver for every use; what ends it is the caller's stop policy:
//   a time window   run_closed_loop() (load_driver.hpp): warm-up, then `duration` recorded
//   a window of N   run_closed_loop() with load_spec::calls: limit_window(N), the workers stop
//                   once they have made N calls between them
//   a call count    Google Benchmark cases: wait_for_completions() per iteration
//   stages          run_closed_loop() with load_spec::worker_stages: set_active() as the ramp
//                   goes, workers past the count resting (k6's ramping-vus)
//
// Nothing is shared on the per-call path: a worker's calls all go to one connection (lane w), a
// completion records into its own thread's shard (call_recorder), and the phase is read, never
// written, per call. Worker w greets "w<w>-" padded to the payload size, and its reply is checked
// against exactly that (a reply routed to the wrong worker is a wrong_reply). A client that sends
// a user call (protocol_client::greets() false) has judged its replies itself: none is checked.
// With a mix of user calls each worker walks the mix's cycle from its own offset
// (request_mix.hpp), its every call's payload naming the request picked, recorded under it.
//
// Threads: start(), open_window(), close_window(), stop() and the waits are for one driving
// thread; the calls run on the client's threads. The client's completion rule (protocol.hpp)
// makes the re-issue from a completion safe.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "wirebench/load/call_recorder.hpp"
#include "wirebench/load/request_mix.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench {

class closed_loop {
 public:
  using clock = std::chrono::steady_clock;

  // `interval`: the timeline's (results().calls_over_time). `mix`: which request each call sends
  // when the client has several user calls (its weights in the order of client_config::calls).
  closed_loop(protocol_client& client, std::size_t workers, std::size_t payload_bytes = 5,
              std::chrono::nanoseconds interval = std::chrono::milliseconds(100),
              request_mix mix = request_mix{});
  ~closed_loop();  // stops, if running
  closed_loop(const closed_loop&) = delete;
  closed_loop& operator=(const closed_loop&) = delete;

  // Every worker starts calling. Calls are counted but not recorded until open_window(); with
  // `measured`, the window is open from the first call (no warm-up: a run of -n N makes exactly
  // N calls, none before them).
  void start(bool measured = false);
  // When start() was called: the timeline's zero.
  clock::time_point started_at() const { return zero_; }
  // Before open_window(): the window holds exactly `calls` calls (load_spec::calls). Worker w
  // makes calls / workers of them, the first calls % workers one more, then stops; the last to
  // complete sets window_done().
  void limit_window(std::uint64_t calls);
  // Only workers 0..n-1 call (any thread; the driving one in practice): a worker at or past n
  // rests once its call in flight completes, and a resting one below n starts again at once.
  // All of them by default.
  void set_active(std::size_t n);
  // Calls that start from now on are recorded (close_window() ends that); workers keep calling.
  void open_window();
  void close_window();
  // Returns once `n` calls have completed since start() (recorded or not); stops no one.
  void wait_for_completions(std::uint64_t n) const;
  std::uint64_t completions() const { return recorder_.completions(); }
  // Keep live counts for live(): before start().
  void keep_live_counts() { recorder_.keep_live_counts(); }
  // What its calls have done so far (load_spec::on_live): any thread.
  live_counts live() const { return recorder_.live(); }
  // No worker starts another call; returns once every call in flight has completed.
  void stop();
  // As stop(), but gives up waiting at `deadline`: false when calls were still in flight then.
  bool stop_until(clock::time_point deadline);
  // After stop_until() gave up: calls that complete from now on (the client's close fails them)
  // count as unfinished. Returns which workers still had a call in flight ("workers 3, 7").
  std::string cut();

  // With limit_window(): whether every call of the window has completed, and when the last did.
  // Waited for with state_mutex() and state_changed(), which the last completion notifies.
  bool window_done() const { return window_done_at_.has_value(); }
  clock::time_point window_done_at() const { return *window_done_at_; }
  std::mutex& state_mutex() { return done_mutex_; }
  std::condition_variable& state_changed() { return done_; }

  // What the window recorded. After stop() (or a cut followed by the client's close).
  call_recorder::totals results() const { return recorder_.merged(); }
  // The calls that belong to the window (load_result::issued). After stop().
  std::uint64_t issued() const;

 private:
  enum class phase : int { idle, warmup, measured, after, stopping };
  struct alignas(64) worker {  // one cache line each: workers on different threads never share one
    std::string name;
    std::string expected;
    std::optional<request_mix::walk> requests;  // a mix's
    std::uint32_t request = 0;                  // which its current call sent
    clock::time_point started;
    phase started_in = phase::idle;  // the phase its current call started in
    std::uint64_t issued = 0;        // of its calls, those that belong to the window
    std::uint64_t quota = UINT64_MAX;  // how many the window holds (limit_window)
    std::atomic<bool> in_flight{false};  // read by cut() from the driving thread
    bool resting = false;  // past set_active()'s count, with no call in flight (under rest_mutex_)
  };
  // Rests worker w if set_active() says so; true if it did (then it makes no call).
  bool rests(std::size_t w);
  inline void issue(std::size_t w, clock::time_point now, phase now_in);  // in closed_loop.cpp
  void on_reply(std::size_t w, std::error_code ec, std::string_view reply);

  protocol_client& client_;
  const bool check_greetings_;  // client_.greets(), asked once
  const request_mix mix_;  // before workers_: their walks point into it
  std::vector<worker> workers_;
  call_recorder recorder_;
  clock::time_point zero_;  // set by start(), before any call
  std::atomic<phase> phase_{phase::idle};
  std::atomic<bool> cut_{false};
  std::atomic<std::size_t> active_{0};  // workers not yet retired (touched once per worker)
  std::atomic<std::size_t> allowed_{SIZE_MAX};  // set_active()'s count
  std::mutex rest_mutex_;  // a worker's resting flag, between it and set_active()
  std::mutex done_mutex_;
  std::condition_variable done_;
  std::optional<clock::time_point> window_done_at_;  // under done_mutex_
};

}  // namespace wirebench
