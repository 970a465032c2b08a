// Open loop: calls start on a schedule, whatever the server is doing. Each call is timed from its
// intended start, so a server stall shows up as latency even for the calls that were only waiting
// to be sent (no coordinated omission); the time from the actual send is recorded beside it.
//
// The schedule runs on the client's own event loops, split between them (open_loop_shard.hpp):
// each loop sends its share of the calls from its own timer and takes its own replies, so no call
// crosses a thread. The driving thread only times the window and waits for the end, which comes
// within the window, the call timeout and a grace whatever happens: past that the watchdog closes
// the client and counts what never completed as unfinished.
#include <algorithm>
#include <future>
#include <memory>
#include <optional>
#include <stdexcept>

#include <asio/post.hpp>

#include "open_loop_shard.hpp"
#include "run_ending.hpp"
#include "wirebench/load/load_driver.hpp"
#include "wirebench/transport/io_pool.hpp"

namespace wirebench {
namespace {

using clock_type = std::chrono::steady_clock;
using detail::open_loop_shard;

// How long a client may take to close once the watchdog has fired, before the run is stuck.
constexpr auto close_limit = std::chrono::seconds(5);

// The shards' loops: the client's, or (a client without loops of its own) one of the driver's.
struct shard_loops {
  std::vector<asio::io_context*> loops;
  std::unique_ptr<io_pool> own;  // only when the client has none
  bool completes_here = true;
};

// Lets the driver's own loop run what was posted to it before now (completions handed over by
// the client's threads), then stops it.
void drain_and_stop(io_pool& own) {
  std::promise<void> ran;
  asio::post(own.context(0), [&ran] { ran.set_value(); });
  ran.get_future().wait();
  own.stop();
}

// Frees each shard on its own loop, which the client still runs: a shard's timer is that loop's,
// and the loop may be in the shard's last handler as it tells the run it has finished.
void free_on_loops(std::vector<std::shared_ptr<open_loop_shard>>& shards,
                   const std::vector<asio::io_context*>& loops) {
  std::vector<std::future<void>> freed;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    auto done = std::make_shared<std::promise<void>>();
    freed.push_back(done->get_future());
    asio::post(*loops[k], [shard = std::move(shards[k]), done]() mutable {
      shard.reset();
      done->set_value();
    });
  }
  for (auto& f : freed) f.wait();
  shards.clear();
}

shard_loops loops_for(protocol_client& client) {
  shard_loops out;
  out.loops = client.event_loops();
  if (out.loops.empty()) {
    out.own = std::make_unique<io_pool>(io_pool_options{1, {}, "sched"});
    out.loops.push_back(&out.own->context(0));
    out.completes_here = false;
  }
  return out;
}

// Where the calls still in flight are, for the watchdog's report.
std::string in_flight_report(const std::vector<std::shared_ptr<open_loop_shard>>& shards) {
  std::string report;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const std::uint64_t n = shards[i]->in_flight();
    if (n == 0) continue;
    if (!report.empty()) report += ", ";
    report += "client thread " + std::to_string(i) + ": " + std::to_string(n) + " call(s)";
  }
  return report.empty() ? "no call in flight, the schedule not finished" : report;
}

}  // namespace

load_result run_open_loop(protocol_client& client, const load_spec& spec) {
  if (!spec.arrivals) throw std::invalid_argument("an open loop needs an arrival schedule");
  if (spec.workers == 0)
    throw std::invalid_argument("an open loop needs room for at least one call in flight");
  // Checked before any shard exists, so that a bad rate fails here, at once.
  (void)arrival_schedule::for_window(spec);
  const bool by_count = spec.calls > 0;

  auto loops = loops_for(client);
  const std::size_t shards_n = std::min(loops.loops.size(), spec.workers);
  // Room in flight is split like the schedule: shard k gets workers / n, the first ones one more.
  const std::size_t each = spec.workers / shards_n, extra = spec.workers % shards_n;
  // A short lead, so that the first calls are not late by the time it takes to get going.
  const auto lead = std::chrono::milliseconds(2);
  const auto start = clock_type::now() + lead;
  const auto window_opens = start + spec.warmup;
  // With a call count the window closes when the schedule is used up; the duration caps it.
  const auto window_closes = window_opens + (spec.stages ? spec.stages->duration() : spec.duration);

  auto run = std::make_unique<open_loop_shard::run_state>();
  run->mix = request_mix(spec.request_weights);
  run->running = shards_n;
  run->scheduling = shards_n;
  std::vector<std::shared_ptr<open_loop_shard>> shards;
  for (std::size_t k = 0; k < shards_n; ++k) {
    open_loop_shard::plan plan{.spec = &spec,
                               .start = start,
                               .share = k,
                               .shares = shards_n,
                               .max_in_flight = each + (k < extra ? 1 : 0),
                               .completes_here = loops.completes_here};
    shards.push_back(std::make_shared<open_loop_shard>(client, *loops.loops[k], plan, *run));
  }
  for (auto& s : shards) s->start();
  // The shards are read, not owned, by the reader: it is handed back (reset) before they can
  // go, on every path below.
  std::optional<detail::live_reader_lease> live;
  live.emplace(spec, [&shards] {
    live_counts sum;
    for (const auto& s : shards) s->records().add_live(sum);
    return sum;
  });

  load_result result;
  result.start_unix = unix_seconds_now() + std::chrono::duration<double>(lead).count();
  detail::counter_sampler sampler(client, start, spec.interval);
  auto give_up_now = [&] {
    run->stop.store(true, std::memory_order_relaxed);
    for (auto& s : shards) open_loop_shard::wake(s);
  };
  auto gave_up = [&] { return !result.gave_up.empty(); };
  auto finished = [&] { return run->running == 0; };
  auto window_filled = [&] { return gave_up() || (by_count && run->scheduling == 0); };
  // The CPU clocks are read a moment before the window opens: a burst due as it opens (bursty
  // arrivals fall on whole seconds) is served before the driving thread would wake to read them.
  constexpr auto cpu_lead = std::chrono::milliseconds(1);
  detail::wait_for_run(run->mutex, run->finished, gave_up, window_opens - cpu_lead, spec, result.gave_up,
                       give_up_now, sampler);
  if (spec.on_window) spec.on_window(true);
  detail::wait_for_run(run->mutex, run->finished, gave_up, window_opens, spec, result.gave_up, give_up_now,
                       sampler);
  const auto window_start = clock_type::now();
  result.window_start_unix = unix_seconds_now();
  if (!detail::wait_for_run(run->mutex, run->finished, window_filled, window_closes, spec,
                            result.gave_up, give_up_now, sampler) &&
      by_count) {
    result.gave_up = detail::count_cap_passed(spec);
    give_up_now();
  }
  const auto window_end = clock_type::now();
  result.window_seconds = std::chrono::duration<double>(window_end - window_start).count();

  // Every call the window planned ends by its deadline; the watchdog allows a grace beyond it.
  const auto deadline = std::max(window_end, window_closes) + spec.call_timeout + spec.watchdog_grace;
  if (!detail::wait_for_run(run->mutex, run->finished, finished, deadline, spec, result.gave_up,
                            give_up_now, sampler)) {
    result.watchdog = in_flight_report(shards);
    run->cut.store(true, std::memory_order_relaxed);  // what completes from now on: unfinished
    if (!detail::close_within(client, close_limit)) {
      live.reset();
      // Its threads may still run the shards' code: nothing they touch may ever be freed, so the
      // loops, the shards and the run state are let go of (load_result::stuck tells the caller
      // to end the process without destroying the client or the spec).
      result.stuck = true;
      result.watchdog += "; the client did not close within 5 s";
      (void)loops.own.release();
      for (auto& s : shards) (void)new std::shared_ptr<open_loop_shard>(std::move(s));
      (void)run.release();
      return result;
    }
    if (loops.own) drain_and_stop(*loops.own);  // completions posted before the close run
    // No thread runs the shards now: what the client never completed is counted here.
    for (auto& s : shards) s->account_abandoned();
  }

  // The window's CPU ends once its calls have (a burst at its end is served after it closes).
  if (spec.on_window) spec.on_window(false);
  live.reset();
  // Finished, each shard's records were last written before it told the run (under its mutex).
  call_recorder::totals totals;
  totals.calls_over_time = timeline(spec.interval);
  if (run->mix.is_mix()) totals.per_request.resize(run->mix.requests());
  std::chrono::nanoseconds schedule_end{0};
  for (const auto& s : shards) {
    s->records().merge_into(totals);
    result.planned += s->planned();
    result.issued += s->issued();
    schedule_end = std::max(schedule_end, s->schedule_end());
  }
  // A count's window is the span its schedule filled (N / rate for uniform arrivals), not when
  // the driver saw it end: the rate it reports is then the rate offered.
  if (by_count && result.gave_up.empty() && result.watchdog.empty())
    result.window_seconds = std::chrono::duration<double>(schedule_end).count();
  result.latency = std::move(totals.latency);
  result.actual_latency = std::move(totals.actual_latency);
  result.outcomes = std::move(totals.outcomes);
  result.per_request = std::move(totals.per_request);
  result.late = totals.late;
  const auto end = clock_type::now();
  totals.calls_over_time.set_span(end > start ? end - start : clock_type::duration::zero());
  sampler.tick(end);  // the dials of the calls' last moments
  totals.calls_over_time.merge(sampler.samples());
  result.calls_over_time = std::move(totals.calls_over_time);
  if (loops.own) {
    loops.own->stop();  // no thread runs the shards now
  } else if (result.watchdog.empty()) {
    free_on_loops(shards, loops.loops);  // the client's loops run on
  }
  return result;
}

}  // namespace wirebench
