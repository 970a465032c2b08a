#pragma once
// What both load drivers do on their driving thread so that a run ends on time whatever the
// client or the server does: wait for the window's edges and for the last calls, asking the
// caller's give_up as they go, and close the client when the watchdog has to cut the run short.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>

#include "counter_sampler.hpp"
#include "wirebench/load/load_spec.hpp"
#include "wirebench/protocols/protocol.hpp"

namespace wirebench::detail {

// Waits on `changed` (with `mutex`) until `until` or until `done()` holds (checked under the
// lock at each wake-up; a done() that reads `gave_up` ends the wait when the run gives up). It
// wakes about every 50 ms (twice an interval when the timeline's is shorter) to tick `sampler`
// and, while `gave_up` is empty, to ask spec.give_up; its first non-empty answer is stored in
// `gave_up`, and `on_give_up()` runs once, without the lock. Returns done().
bool wait_for_run(std::mutex& mutex, std::condition_variable& changed,
                  const std::function<bool()>& done, std::chrono::steady_clock::time_point until,
                  const load_spec& spec, std::string& gave_up,
                  const std::function<void()>& on_give_up, counter_sampler& sampler);

// load_result::gave_up when a run of spec.calls calls reached its cap (spec.duration) first.
std::string count_cap_passed(const load_spec& spec);

// client.close() on a thread of its own, waited for up to `limit`. False when it has not returned
// by then: the thread is left running, and the client must never be destroyed (the caller ends
// the process instead).
bool close_within(protocol_client& client, std::chrono::nanoseconds limit);

// Hands load_spec::on_live a reader for the run's life, and takes it back as the run returns,
// whichever way (a scope's end).
class live_reader_lease {
 public:
  live_reader_lease(const load_spec& spec, std::function<live_counts()> read) : spec_(spec) {
    if (spec_.on_live) spec_.on_live(std::move(read));
  }
  ~live_reader_lease() {
    if (spec_.on_live) spec_.on_live({});
  }
  live_reader_lease(const live_reader_lease&) = delete;
  live_reader_lease& operator=(const live_reader_lease&) = delete;

 private:
  const load_spec& spec_;
};

}  // namespace wirebench::detail
