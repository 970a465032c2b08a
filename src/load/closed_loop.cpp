#include "wirebench/load/closed_loop.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "wirebench/core/error.hpp"
#include "wirebench/core/loop_clock.hpp"
#include "wirebench/load/load_driver.hpp"
#include "run_ending.hpp"

namespace wirebench {

closed_loop::closed_loop(protocol_client& client, std::size_t workers, std::size_t payload_bytes,
                         std::chrono::nanoseconds interval, request_mix mix)
    : client_(client),
      check_greetings_(client.greets()),
      mix_(std::move(mix)),
      workers_(workers),
      recorder_(/*track_actual=*/false, interval, mix_.is_mix() ? mix_.requests() : 0) {
  if (workers == 0) throw std::invalid_argument("a closed loop needs at least one worker");
  for (std::size_t w = 0; w < workers; ++w) {
    workers_[w].name = greet_name(w, payload_bytes);
    if (check_greetings_) workers_[w].expected = expected_greeting(workers_[w].name);
    if (mix_.is_mix()) workers_[w].requests.emplace(mix_, mix_.start_of(w, workers));
  }
}

closed_loop::~closed_loop() { stop(); }

void closed_loop::start(bool measured) {
  if (phase_.load() != phase::idle) return;
  active_.store(workers_.size());
  zero_ = clock::now();
  const phase first = measured ? phase::measured : phase::warmup;
  phase_.store(first, std::memory_order_release);
  for (std::size_t w = 0; w < workers_.size(); ++w) issue(w, clock::now(), first);
}

void closed_loop::set_active(std::size_t n) {
  allowed_.store(n, std::memory_order_relaxed);
  std::vector<std::size_t> woken;
  {
    std::lock_guard lock(rest_mutex_);
    for (std::size_t w = 0; w < std::min(n, workers_.size()); ++w) {
      if (!workers_[w].resting) continue;
      workers_[w].resting = false;
      woken.push_back(w);
    }
  }
  // Outside the lock: a call may complete inline (a client closed) and rest its worker again.
  for (const std::size_t w : woken) issue(w, clock::now(), phase_.load(std::memory_order_acquire));
}

bool closed_loop::rests(std::size_t w) {
  if (w < allowed_.load(std::memory_order_relaxed)) return false;
  std::lock_guard lock(rest_mutex_);
  // Again under the lock: set_active() may have raised the count since, and would not see us;
  // and a stop under way has collected the resting workers already (it calls, to retire after).
  if (w < allowed_.load(std::memory_order_relaxed) || phase_.load() == phase::stopping) return false;
  workers_[w].resting = true;
  workers_[w].in_flight.store(false, std::memory_order_relaxed);
  return true;
}

void closed_loop::limit_window(std::uint64_t calls) {
  const std::uint64_t n = workers_.size();
  for (std::uint64_t w = 0; w < n; ++w) workers_[w].quota = calls / n + (w < calls % n ? 1 : 0);
}

void closed_loop::open_window() { phase_.store(phase::measured, std::memory_order_release); }
void closed_loop::close_window() { phase_.store(phase::after, std::memory_order_release); }

// Polled: a completion that woke this thread would be a shared write per call. Each sleep is half
// the time the remaining calls should take at the rate seen so far (20 us to 1 ms), so that the
// wait ends close to the count without waking often.
void closed_loop::wait_for_completions(std::uint64_t n) const {
  using namespace std::chrono_literals;
  const auto since = clock::now();
  const std::uint64_t from = recorder_.completions();
  for (std::uint64_t done = from; done < n; done = recorder_.completions()) {
    auto pause = std::chrono::duration_cast<std::chrono::nanoseconds>(1ms);
    if (done > from) {
      const auto per_call = (clock::now() - since) / (done - from);
      pause = std::chrono::duration_cast<std::chrono::nanoseconds>(per_call * (n - done) / 2);
    }
    std::this_thread::sleep_for(std::clamp<std::chrono::nanoseconds>(pause, 20us, 1ms));
  }
}

void closed_loop::stop() { stop_until(clock::time_point::max()); }

bool closed_loop::stop_until(clock::time_point deadline) {
  const phase was = phase_.exchange(phase::stopping);
  if (was == phase::idle) phase_.store(phase::idle);
  if (was == phase::idle) return true;
  // Resting workers make no more calls to retire at: they retire here.
  std::vector<std::size_t> resting;
  {
    std::lock_guard lock(rest_mutex_);
    for (std::size_t w = 0; w < workers_.size(); ++w)
      if (std::exchange(workers_[w].resting, false)) resting.push_back(w);
  }
  for (const std::size_t w : resting) issue(w, clock::now(), phase::stopping);
  // Each worker retires at its next issue(); the last one wakes us.
  std::unique_lock lock(done_mutex_);
  return done_.wait_until(lock, deadline, [this] { return active_.load() == 0; });
}

std::string closed_loop::cut() {
  cut_.store(true, std::memory_order_relaxed);
  std::string stuck;
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    if (!workers_[w].in_flight.load(std::memory_order_relaxed)) continue;
    stuck += (stuck.empty() ? "" : ", ") + std::to_string(w);
  }
  return stuck.empty() ? "no worker had a call in flight" : "workers " + stuck + " (their lanes)";
}

std::uint64_t closed_loop::issued() const {
  std::uint64_t n = 0;
  for (const worker& k : workers_) n += k.issued;
  return n;
}

// Inline into on_reply(), where a worker's every call but its first starts.
inline void closed_loop::issue(std::size_t w, clock::time_point now, phase now_in) {
  worker& k = workers_[w];
  // A worker retires when the run stops, or when it has made its share of a limited window.
  if (now_in == phase::stopping || (now_in == phase::measured && k.issued == k.quota)) {
    k.in_flight.store(false, std::memory_order_relaxed);
    // The lock makes the last decrement and the driver's wait one step: the driver cannot see 0
    // and destroy this loop between our decrement and our notify.
    std::lock_guard lock(done_mutex_);
    if (active_.fetch_sub(1) == 1) {
      if (now_in == phase::measured) window_done_at_ = now;
      done_.notify_all();
    }
    return;
  }
  if (rests(w)) return;
  k.started_in = now_in;
  k.started = now;
  if (now_in == phase::measured) ++k.issued;
  k.in_flight.store(true, std::memory_order_relaxed);
  std::string_view payload = k.name;
  if (k.requests) {
    k.request = k.requests->next();
    payload = request_payload(k.request);
  }
  client_.async_greet(payload, {.lane = w}, [this, w](std::error_code ec, std::string_view reply) {
    on_reply(w, ec, reply);
  });
}

void closed_loop::on_reply(std::size_t w, std::error_code ec, std::string_view reply) {
  worker& k = workers_[w];
  // When the reply was read (the loop's turn; the clock's for a client with no loop of ours),
  // and when the worker's next call starts: replies read together share one clock read.
  const auto now = loop_clock::now();
  const phase now_in = phase_.load(std::memory_order_acquire);
  // A call counts when it started in the window, or when it started in the warm-up and was
  // still in flight as the window closed: it spanned the whole window (a server that never
  // answers shows so, instead of a window with no call in it).
  bool counted = k.started_in == phase::measured;
  if (k.started_in == phase::warmup && now_in >= phase::after) {
    counted = true;
    ++k.issued;
  }
  if (counted) {
    if (cut_.load(std::memory_order_relaxed)) {
      ec = errc::unfinished;  // past the watchdog: whatever came now is too late
      reply = {};
    } else if (check_greetings_ && !ec && reply != k.expected) {
      ec = errc::wrong_reply;
    }
  }
  const auto ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(now - k.started).count());
  // (A turn's time may be a hair before start() on a loop turning since before it.)
  const auto at = now <= zero_ ? 0 : static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(now - zero_).count());
  recorder_.local().record(at, counted, ec, ns, 0, false, reply, k.request);
  issue(w, now, now_in);
}

std::string greet_name(std::size_t index, std::size_t payload_bytes) {
  std::string name = "w";  // appended piecewise: GCC 12 warns falsely on "w" + std::string
  name += std::to_string(index);
  name += '-';
  name.resize(std::max(payload_bytes, name.size()), 'x');
  return name;
}

// The window is timed on the driving thread, which asks spec.give_up as it waits; the end comes
// within the call timeout and the grace after the window, whatever the client does: past that
// the watchdog closes the client and counts what never completed as unfinished.
load_result run_closed_loop(protocol_client& client, const load_spec& spec) {
  if (spec.workers == 0) throw std::invalid_argument("a closed loop needs at least one worker");
  if (spec.worker_stages && (spec.calls > 0 || spec.warmup.count() > 0))
    throw std::invalid_argument("worker stages are the window: no call count, no warm-up");
  // On the heap: if the client cannot even be closed, its threads may still call into the loop,
  // which must then never be freed (load_result::stuck).
  auto loop = std::make_unique<closed_loop>(client, spec.workers, spec.payload_bytes, spec.interval,
                                            request_mix(spec.request_weights));
  using clock = closed_loop::clock;
  load_result result;
  std::mutex mutex;  // for wait_for_run: nothing else waits on these
  std::condition_variable nothing;
  auto gave_up = [&] { return !result.gave_up.empty(); };
  // Workers in stages: as many as the ramp has at each moment, from its start (no warm-up).
  const auto& stages = spec.worker_stages;
  auto workers_at = [&stages](clock::duration since) {
    return static_cast<std::size_t>(std::llround(stages->rate_at(std::chrono::duration<double>(since).count())));
  };
  if (stages) loop->set_active(workers_at(clock::duration::zero()));
  // Without a warm-up the window opens with the first call: none is made outside it.
  const bool no_warmup = spec.warmup.count() <= 0 || stages;
  if (no_warmup && spec.calls > 0) loop->limit_window(spec.calls);
  if (no_warmup && spec.on_window) spec.on_window(true);
  result.start_unix = unix_seconds_now();
  if (spec.on_live) loop->keep_live_counts();
  loop->start(no_warmup);
  const detail::live_reader_lease live(spec, [&loop = *loop] { return loop.live(); });
  const auto start = loop->started_at();
  detail::counter_sampler sampler(client, start, spec.interval);
  timeline workers_over_time(spec.interval);  // worker stages: the count, interval by interval
  detail::wait_for_run(mutex, nothing, gave_up, start + spec.warmup, spec, result.gave_up, {},
                       sampler);
  if (!no_warmup && spec.on_window) spec.on_window(true);
  const auto window_start = no_warmup ? start : clock::now();
  result.window_start_unix = no_warmup ? result.start_unix : unix_seconds_now();
  if (spec.calls > 0) {
    // Its window ends when the last of its calls completes (the loop notifies its own condition).
    if (!no_warmup) loop->limit_window(spec.calls);
    loop->open_window();
    auto filled = [&] { return gave_up() || loop->window_done(); };
    if (!detail::wait_for_run(loop->state_mutex(), loop->state_changed(), filled,
                              window_start + spec.duration, spec, result.gave_up, {}, sampler))
      result.gave_up = detail::count_cap_passed(spec);
  } else if (stages) {
    // The count follows the ramp in steps of 10 ms (k6 moves its VUs as often); the timeline
    // keeps each interval's last.
    const auto window_end_at = window_start + stages->duration();
    for (auto now = clock::now(); now < window_end_at && !gave_up(); now = clock::now()) {
      const std::size_t workers = workers_at(now - window_start);
      loop->set_active(workers);
      // An interval the driving thread slept through (a loaded machine) keeps the count before.
      const auto index = static_cast<std::size_t>((now - start) / spec.interval);
      const std::uint64_t before =
          workers_over_time.size() ? workers_over_time.intervals().back().workers : 0;
      for (std::size_t i = workers_over_time.size(); i < index; ++i) workers_over_time.at(i).workers = before;
      workers_over_time.at(index).workers = workers;
      detail::wait_for_run(mutex, nothing, gave_up,
                           std::min<clock::time_point>(window_end_at, now + std::chrono::milliseconds(10)),
                           spec, result.gave_up, {}, sampler);
    }
  } else {
    loop->open_window();
    detail::wait_for_run(mutex, nothing, gave_up, window_start + spec.duration, spec,
                         result.gave_up, {}, sampler);
  }
  loop->close_window();
  auto window_end = clock::now();
  if (spec.calls > 0 && result.gave_up.empty()) {
    std::lock_guard lock(loop->state_mutex());
    window_end = loop->window_done_at();
  }
  result.window_seconds = std::chrono::duration<double>(window_end - window_start).count();
  if (!loop->stop_until(window_end + spec.call_timeout + spec.watchdog_grace)) {
    result.watchdog = loop->cut();
    const bool closed = detail::close_within(client, std::chrono::seconds(5));
    // Closed, the client has failed every call it held: each worker retires at its completion.
    if (!closed || !loop->stop_until(clock::now() + std::chrono::seconds(1))) {
      result.stuck = true;
      result.watchdog += closed ? "; calls lost by the client" : "; the client did not close within 5 s";
      (void)loop.release();  // see above: never freed
      return result;
    }
  }
  // The window's CPU ends once the calls it counts have (those in flight as it closed too).
  if (spec.on_window) spec.on_window(false);
  auto totals = loop->results();
  const auto end = clock::now();
  totals.calls_over_time.set_span(end - start);
  sampler.tick(end);  // the dials of the calls' last moments
  totals.calls_over_time.merge(sampler.samples());
  totals.calls_over_time.merge(workers_over_time);
  result.calls_over_time = std::move(totals.calls_over_time);
  result.latency = std::move(totals.latency);
  result.actual_latency = std::move(totals.actual_latency);
  result.outcomes = std::move(totals.outcomes);
  result.per_request = std::move(totals.per_request);
  result.issued = loop->issued();
  return result;
}

load_result run_load(protocol_client& client, const load_spec& spec) {
  return spec.arrivals ? run_open_loop(client, spec) : run_closed_loop(client, spec);
}

}  // namespace wirebench
