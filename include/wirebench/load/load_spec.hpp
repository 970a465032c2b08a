#pragma once
// What one load run does (load_spec) and what it measured (load_result). One run = one point of a
// sweep: a warm-up whose calls are not recorded, then the measured window.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "wirebench/load/arrival_schedule.hpp"
#include "wirebench/load/live_counts.hpp"
#include "wirebench/load/rate_profile.hpp"
#include "wirebench/stats/latency_histogram.hpp"
#include "wirebench/stats/outcome_counts.hpp"
#include "wirebench/stats/timeline.hpp"

namespace wirebench {

using namespace std::chrono_literals;

struct load_spec {
  // Closed loop: the number of callers, each starting its next call when its last one completes.
  // Open loop: the most calls in flight at once; a call due while all are busy waits (and is
  // counted late if it waits longer than late_after).
  std::size_t workers = 1;
  // nullopt: closed loop. Otherwise an open loop at `rate` calls/s with these arrivals.
  std::optional<arrival_kind> arrivals;
  double rate = 0;
  // Open loop: the window's rate as stages, ramping from 0 (rate_profile.hpp); the window lasts
  // their duration (`duration` is not read), and `rate` is only the warm-up's. Uniform or
  // poisson arrivals. nullopt: `rate` throughout.
  std::optional<rate_profile> stages;
  // Closed loop: the number of workers calling over the window as stages, from 0 (k6's
  // ramping-vus): `workers` must hold their peak; the window lasts their duration, with neither
  // `calls` nor a warm-up (std::invalid_argument). nullopt: `workers` throughout.
  std::optional<rate_profile> worker_stages;
  std::chrono::nanoseconds warmup = 0s;  // open loop: evenly spaced calls at the rate, unrecorded
  std::chrono::nanoseconds duration = 1s;
  // 0: the window lasts `duration`. Otherwise it holds exactly this many calls (h2load's -n):
  // the closed loop's workers share them (worker w makes calls / workers, the first calls %
  // workers one more) and the window closes when the last completes; the open loop's schedule
  // has this many arrivals, however long they take at the rate. `duration` then caps the window:
  // past it the run gives up (load_result::gave_up says so) with the calls it reached.
  std::uint64_t calls = 0;
  std::size_t payload_bytes = 5;  // the greeted name's length
  // A mix of requests (client_config::calls with several): each one's weight, in the order of
  // the client's calls; each call then sends the one request_mix.hpp picks, its payload naming
  // it (request_payload), and each is recorded apart (load_result::per_request). Empty or one:
  // no mix (the greet call, or one user call, named by the worker or call as ever).
  std::vector<std::uint32_t> request_weights;
  std::chrono::nanoseconds late_after = 1ms;  // open loop: a send this much past its intended start is late
  std::chrono::nanoseconds interval = 100ms;  // the timeline's (load_result::calls_over_time)
  std::uint64_t seed = 1;  // open loop: the arrival schedule's
  // The client's own deadline for each call (client_config::reply_timeout). The run relies on it:
  // an open-loop call that waited this long for room in flight times out unsent, and the run's
  // watchdog fires when calls are still in flight this long after the window, plus watchdog_grace.
  std::chrono::nanoseconds call_timeout = 10s;
  std::chrono::nanoseconds watchdog_grace = 2s;
  // Called on the driving thread as the measured window opens (true) and once the calls it
  // counts have all ended (false: after it closes, when the last of them completes, so that a
  // burst due at its end is served inside what is sampled): where the caller samples CPU clocks.
  std::function<void(bool opening)> on_window;
  // Asked on the driving thread about every 50 ms while the run goes on: a non-empty answer gives
  // up the run at once (no call is issued after it; calls in flight still complete), and is kept
  // in load_result::gave_up. Where a caller stops a run that cannot do its work (no connection
  // could be made) or was interrupted.
  std::function<std::string()> give_up;
  // Called on the driving thread as the run starts, with a reader of what it has done so far
  // (live_counts.hpp: warm-up included), which any thread may call until the run calls this
  // again with an empty one before it returns (whatever way it ends). What a progress line reads;
  // without it no live counts are kept (they cost a few nanoseconds a call).
  std::function<void(std::function<live_counts()> read)> on_live;
};

// One request of a mix, as the window measured it: each field as load_result's own.
struct request_result {
  latency_histogram latency;
  outcome_counts outcomes;
  std::uint64_t late = 0;
};

struct load_result {
  // Closed loop: from each call's start. Open loop: from its *intended* start, so time a call spent
  // waiting to be sent counts (no coordinated omission).
  latency_histogram latency;
  // From the moment the call was handed to the client (equal to `latency` in a closed loop).
  latency_histogram actual_latency;
  outcome_counts outcomes;     // every call whose (intended) start fell in the measured window
  std::uint64_t late = 0;      // open loop: of those, sent more than late_after after intended
  // Open loop: calls the schedule asked for in the window; each is counted in `outcomes` once,
  // sent or not (one that waited for room in flight past the call timeout is a timeout unsent).
  std::uint64_t planned = 0;
  // The calls handed to the client that belong to the window: an open loop's sent share of
  // `planned`; a closed loop's calls started in the window, plus any started in the warm-up that
  // were still in flight when the window closed (they spanned it: a server that never answers
  // is then seen). Every one of them is counted in `outcomes` once.
  std::uint64_t issued = 0;
  // Why the run was given up early (load_spec::give_up), or empty. Only the calls it reached are
  // counted then.
  std::string gave_up;
  // Empty unless the watchdog fired: calls were still in flight past the window, the call timeout
  // and the grace (a client that broke its promise to complete every call). Then it names where
  // they were ("worker 3", "client thread 0: 12 calls"), the client was closed, and those calls
  // are counted as `unfinished`.
  std::string watchdog;
  // With `watchdog`: the client did not even close in time. Nothing of the run may be touched or
  // freed any more (its threads may still be running): the caller reports and exits.
  bool stuck = false;
  // The measured window, as timed; with a call count, the time its calls took (closed loop:
  // until the last completed) or the span of their schedule (open loop: N / rate when uniform).
  double window_seconds = 0;
  // When the window opened, in seconds since the Unix epoch (the system clock): what lines up
  // the windows of generators on several hosts when their results are merged.
  double window_start_unix = 0;
  // The whole run interval by interval, from its start (the warm-up's first call) to its last
  // call: warm-up and drain included, the window within it (stats/timeline.hpp).
  timeline calls_over_time;
  // When the run (the timeline) started, on the system clock as window_start_unix.
  double start_unix = 0;
  // Merged results only: the sum of each generator's successful calls per second, each over its
  // own window (0 otherwise).
  double merged_rate = 0;
  // A mix's requests, by index (load_spec::request_weights); their counts add up to `outcomes`.
  // Empty without a mix.
  std::vector<request_result> per_request;
  double requests_per_second() const {
    if (merged_rate > 0) return merged_rate;
    return window_seconds > 0 ? static_cast<double>(outcomes.count(outcome::ok)) / window_seconds : 0;
  }
};

// The system clock now, in seconds since the Unix epoch (load_result::window_start_unix).
inline double unix_seconds_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace wirebench
