#pragma once
// One event loop's share of an open-loop run (open_loop_driver.cpp): its part of the arrival
// schedule (arrival_schedule's shares), its own timer, its own slots for calls in flight and its
// own records. It runs on the client's own loop when the client has loops (protocol_client::
// event_loops()): a call it makes goes out on a connection of that thread, and its completion
// comes back there, so no call crosses a thread and none allocates. A client without loops gets
// a loop of the driver's, and its completions are posted back to it.
//
// Arrivals the shard cannot send because all its slots are busy wait, in order, as the schedule's
// cursor falling behind: nothing is queued per call. A slot that frees sends the oldest; one that
// has waited longer than the call timeout times out unsent (counted, never sent), so that a server
// that stops answering cannot hold the schedule up past its calls' deadlines.
//
// Threads: the constructor, start() and wake() may be called from any thread; everything else
// runs on the shard's loop, but for the few relaxed counters the driver reads for its watchdog,
// and what the driver reads once the loop can no longer run the shard (finished, or the client
// closed), which the run_state's mutex or the loop threads' join orders.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <asio/io_context.hpp>

#include "wirebench/load/arrival_schedule.hpp"
#include "wirebench/load/call_recorder.hpp"
#include "wirebench/load/load_spec.hpp"
#include "wirebench/load/request_mix.hpp"
#include "schedule_timer.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::detail {

class open_loop_shard {
 public:
  using clock = std::chrono::steady_clock;

  // What every shard of a run shares with the driver.
  struct run_state {
    std::atomic<bool> stop{false};  // given up: no call is issued from now on
    std::atomic<bool> cut{false};   // the watchdog fired: calls completing now are unfinished
    std::mutex mutex;
    std::condition_variable finished;
    std::size_t running = 0;  // shards not finished (under mutex)
    // Shards whose measured schedule is not used up yet (under mutex): with a call count
    // (load_spec::calls) the window closes when it reaches 0.
    std::size_t scheduling = 0;
    // Which request each call sends (load_spec::request_weights); the shards walk it, each from
    // its own offset. Fixed before the shards are made.
    request_mix mix;
  };
  // This shard's place in the run; fixed before start().
  struct plan {
    const load_spec* spec = nullptr;
    clock::time_point start;  // the schedule's zero: the warm-up's first call
    std::size_t share = 0, shares = 1;
    std::size_t max_in_flight = 1;  // this shard's part of spec->workers
    bool completes_here = true;     // the client runs this shard's completions on its loop
  };

  open_loop_shard(protocol_client& client, asio::io_context& loop, const plan& p, run_state& run);
  open_loop_shard(const open_loop_shard&) = delete;
  open_loop_shard& operator=(const open_loop_shard&) = delete;

  // Any thread: the shard starts on its loop (counted in run.running by the caller).
  void start();
  // Any thread: have the shard look at run.stop now rather than at its next timer. The posted
  // look holds `self` weakly: the shard may have finished, and the driver freed it, before then.
  static void wake(const std::shared_ptr<open_loop_shard>& self);

  // Any thread, while the run goes on: calls handed to the client and not yet completed.
  std::uint64_t in_flight() const { return in_flight_count_.load(std::memory_order_relaxed); }

  // Once no thread can run the shard any more (it finished, or the client was closed and its
  // loops joined): calls the client never completed are counted as unfinished, and so are
  // arrivals the loop never reached (a loop that stopped turning). Returns how many.
  std::uint64_t account_abandoned();
  const call_recorder::shard& records() const { return records_; }
  std::uint64_t planned() const { return planned_; }
  // Once finished: where this share's schedule ended (arrival_schedule::end()), from the window's
  // opening.
  std::chrono::nanoseconds schedule_end() const { return measured_.end(); }
  std::uint64_t issued() const { return issued_; }

 private:
  struct slot {
    std::uint64_t seq = 0;  // the call's number in the run: its name is "c<seq>-"
    std::uint32_t request = 0;  // a mix's request it sent
    clock::time_point intended, sent;
    bool measured = false;
    bool late = false;
    bool busy = false;
  };
  struct arrival {
    clock::time_point intended;
    bool measured;
    std::uint64_t seq;
    std::uint32_t request;  // picked as it arrives, so one never sent is counted under it too
  };

  void advance();  // the schedule's next arrival into next_, or none
  void schedule_used_up();  // tells the run, once
  void pump(clock::time_point now);
  void issue(clock::time_point now);
  void arm(clock::time_point now);
  void on_timer(bool aborted);
  // `judged`: the reply was checked already, on the client's thread (it is gone by now).
  void on_reply(std::uint32_t index, std::error_code ec, std::string_view reply,
                clock::time_point now, bool judged);
  void finish_if_done();
  std::string_view name_of(std::uint64_t seq);
  // Where `t` falls on the run's timeline: ns since the schedule's zero (0 before it).
  std::uint64_t since_start(clock::time_point t) const;
  bool is_greeting_for(std::uint64_t seq, std::string_view reply) const;

  protocol_client& client_;
  asio::io_context& loop_;
  const plan plan_;
  run_state& run_;
  const bool check_greetings_;  // client_.greets(), asked once
  const clock::duration timeout_;

  std::optional<arrival_schedule> warmup_;  // gone once used up
  arrival_schedule measured_;
  std::uint64_t taken_ = 0;  // arrivals of this share taken from the schedule so far
  std::optional<arrival> next_;
  std::optional<request_mix::walk> requests_;  // a mix's picks

  std::vector<slot> slots_;
  std::vector<std::uint32_t> free_;  // indices of free slots
  std::uint64_t in_flight_ = 0;
  std::atomic<std::uint64_t> in_flight_count_{0};  // in_flight_, for the driver to read

  schedule_timer timer_;
  std::optional<clock::time_point> armed_at_;  // when the timer expires, while armed
  bool started_ = false;
  bool finished_ = false;
  bool used_up_ = false;  // the measured schedule has no more arrivals (told to the run)

  std::string name_;  // the last name built: "c<seq>-" padded with 'x' to the payload size
  const std::string padding_;  // payload_bytes of 'x'
  std::uint64_t planned_ = 0;  // arrivals in the window taken from the schedule
  std::uint64_t issued_ = 0;   // of those, handed to the client
  call_recorder::shard records_;
};

}  // namespace wirebench::detail
